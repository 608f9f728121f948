import { createHmac } from 'node:crypto';
import { keyring, purposeKey, type KeySource } from './keyring';
import { openSecret, sealSecret, SecretBoxError } from './secretBox';

/**
 * Card numbers at rest: sealed by the secret box under the `card` key, bound to the payment
 * instrument's id, so a blob copied to another instrument fails to open. Nothing here logs its input.
 */
export { keyFilePath, type KeySource } from './keyring';
export { SecretBoxError as CardVaultError };

export function encryptPan(pan: string, instrumentId: string, source?: KeySource): string {
  return sealSecret(pan, { purpose: 'card', owner: instrumentId }, source);
}

export function decryptPan(blob: string, instrumentId: string, source?: KeySource): string {
  return openSecret(blob, { purpose: 'card', owner: instrumentId }, source);
}

/**
 * A keyed fingerprint: the same card gives the same value under one master key, without being
 * reversible. rotate-keys recomputes it with the card's blob, so it stays comparable across rows.
 */
export function panFingerprint(pan: string, source?: KeySource): string {
  return createHmac('sha256', purposeKey(keyring(source).current, 'card-fingerprint'))
    .update(pan)
    .digest('hex');
}

/**
 * The current master key, for the signing keys derived from it by a label (idempotency request
 * hashes, 3DS return links, portal offer links). These keep their pre-HKDF derivation so that the
 * values already handed out (links in flight, stored request hashes) stay valid across upgrades.
 */
export function vaultKey(source?: KeySource): Buffer {
  return keyring(source).current.secret;
}

/** Every configured master key, current first: what a signature made before a rotation is checked against. */
export function vaultKeys(source?: KeySource): Buffer[] {
  return keyring(source).all.map((key) => key.secret);
}

/** Key of the Idempotency-Key request fingerprints: derived from the vault key, so no second secret to manage. */
export function idempotencyHashKey(source?: KeySource): Buffer {
  return createHmac('sha256', vaultKey(source)).update('idempotency-request-hash-v1').digest();
}
