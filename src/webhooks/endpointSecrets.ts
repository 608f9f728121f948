import type { KeySource } from '../vault/keyring';
import { openSecret, sealSecret } from '../vault/secretBox';

/**
 * Endpoint signing secrets at rest: they are needed in clear to sign, so they are sealed (not
 * hashed) under the `webhook-signing` key, bound to their endpoint. The rotated-out secret moves
 * to `previousSecret` sealed as it was: both columns belong to the same endpoint.
 */
const purpose = 'webhook-signing';

export function sealEndpointSecret(secret: string, endpointId: string, source: KeySource): string {
  return sealSecret(secret, { purpose, owner: endpointId }, source);
}

/** A stored secret in clear; one stored before secrets were sealed (`whsec_…` as is) is read as it is. */
export function openEndpointSecret(stored: string, endpointId: string, source: KeySource): string {
  if (isUnsealedEndpointSecret(stored)) return stored;
  return openSecret(stored, { purpose, owner: endpointId }, source);
}

export function isUnsealedEndpointSecret(stored: string): boolean {
  return stored.startsWith('whsec_');
}

/** An endpoint row with its signing secrets opened, for `signingSecrets`. */
export function withOpenedSecrets<
  T extends { id: string; secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
>(endpoint: T, source: KeySource): T {
  return {
    ...endpoint,
    secret: openEndpointSecret(endpoint.secret, endpoint.id, source),
    previousSecret: endpoint.previousSecret && openEndpointSecret(endpoint.previousSecret, endpoint.id, source),
  };
}
