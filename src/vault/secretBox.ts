import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keyring, purposeKey, type KeySource, type MasterKey, type VaultPurpose } from './keyring';

/**
 * Secrets at rest: AES-256-GCM under the key of their purpose, derived from the current master
 * key. The purpose and the id of the row that owns the secret are the associated data, so a blob
 * copied to another row or column of another purpose fails to open. Blob format:
 * `v2:<master key id>:<iv b64>:<tag b64>:<ciphertext b64>`; the key id lets previous master keys
 * keep opening their blobs until `admin -- rotate-keys` moves them.
 *
 * Read only, never written: the formats before key ids, under the master key itself, bound to
 * nothing (`v1:`, cards) or to the purpose alone (`sb1:`); rotate-keys moves them to `v2:`.
 */
const version = 'v2';

export class SecretBoxError extends Error {}

/** Whose secret a blob is: the purpose, and the id of the row (or owner) it belongs to. */
export interface Binding {
  purpose: VaultPurpose;
  owner: string;
}

export function sealSecret(plaintext: string, binding: Binding, source?: KeySource): string {
  const master = keyring(source).current;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(master, binding.purpose), iv);
  cipher.setAAD(associatedData(binding));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64'));
  return [version, master.id, ...parts].join(':');
}

export function openSecret(blob: string, binding: Binding, source?: KeySource): string {
  const ring = keyring(source);
  const [blobVersion, keyId, ...rest] = blob.split(':');
  if (blobVersion !== version) return openLegacy(blob, binding, ring.all);
  const master = keyId ? ring.byId.get(keyId) : undefined;
  if (!master)
    throw new SecretBoxError(
      `secret box blob is sealed under master key ${keyId ?? '(none)'}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_PREVIOUS`,
    );
  const opened = decrypt(rest, purposeKey(master, binding.purpose), associatedData(binding));
  if (opened === undefined)
    throw new SecretBoxError('secret box blob failed authentication (wrong purpose, wrong row or tampered)');
  return opened;
}

/** The master key id a blob is sealed under; null for a blob of a format before key ids. */
export function blobKeyId(blob: string): string | null {
  const [blobVersion, keyId] = blob.split(':');
  return blobVersion === version && keyId ? keyId : null;
}

/** Whether a blob is already sealed under the current master key (nothing for rotate-keys to do). */
export function isOnCurrentKey(blob: string, source?: KeySource): boolean {
  return blobKeyId(blob) === keyring(source).current.id;
}

export function sealJson(value: unknown, binding: Binding, source?: KeySource): string {
  return sealSecret(JSON.stringify(value), binding, source);
}

export function openJson<T = unknown>(blob: string, binding: Binding, source?: KeySource): T {
  return JSON.parse(openSecret(blob, binding, source)) as T;
}

function associatedData({ purpose, owner }: Binding): Buffer {
  return Buffer.from(`${version}\u0000${purpose}\u0000${owner}`, 'utf8');
}

/** A blob of a format before key ids: it names no key, so every master key of the ring is tried. */
function openLegacy(blob: string, binding: Binding, keys: MasterKey[]): string {
  const [blobVersion, ...parts] = blob.split(':');
  // Cards were `v1:` with no associated data; other secrets `sb1:` with their purpose as associated data.
  const aad =
    blobVersion === 'v1' && binding.purpose === 'card'
      ? null
      : blobVersion === 'sb1' && binding.purpose !== 'card'
        ? Buffer.from(binding.purpose, 'utf8')
        : undefined;
  if (aad === undefined) throw new SecretBoxError('not a secret box blob');
  for (const master of keys) {
    const opened = decrypt(parts, master.secret, aad);
    if (opened !== undefined) return opened;
  }
  throw new SecretBoxError('secret box blob failed authentication under every configured master key');
}

function decrypt(parts: string[], key: Buffer, aad: Buffer | null): string | undefined {
  const [iv, tag, ciphertext, ...extra] = parts;
  if (!iv || !tag || ciphertext === undefined || extra.length) throw new SecretBoxError('not a secret box blob');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
