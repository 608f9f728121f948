import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import { vaultKey, vaultKeys } from '../vault/cardVault';
import type { KeySource } from '../vault/keyring';

/**
 * The challenge return link. The ACS sends the cardholder's browser to
 * `/api/public/v1/threeds/{id}/return?token=…`; a browser carries no API key, so the link is
 * authenticated by an HMAC of the session id under a key derived from the engine's encryption
 * key: unguessable, bound to one session, and checkable by any API process with the same key.
 * Links handed out before a key rotation stay valid while the old key is in ENCRYPTION_KEYS_PREVIOUS.
 */
function tokenUnder(masterKey: Buffer, purpose: string, subject: string): string {
  const linkKey = createHmac('sha256', masterKey).update(purpose).digest();
  return createHmac('sha256', linkKey).update(subject).digest('base64url');
}

/** A browser link's token: an HMAC of `subject` under a key derived for `purpose` from the engine's encryption key. */
export function linkToken(config: KeySource, purpose: string, subject: string): string {
  return tokenUnder(vaultKey(config), purpose, subject);
}

export function isValidLinkToken(config: KeySource, purpose: string, subject: string, token: unknown): boolean {
  if (typeof token !== 'string' || token.length === 0 || token.length > 128) return false;
  const given = Buffer.from(token);
  return vaultKeys(config).some((key) => {
    const expected = Buffer.from(tokenUnder(key, purpose, subject));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const challengeReturnPurpose = 'threeds-return-link-v1';

export function returnToken(config: KeySource, sessionId: string): string {
  return linkToken(config, challengeReturnPurpose, sessionId);
}

export function isValidReturnToken(config: KeySource, sessionId: string, token: unknown): boolean {
  return isValidLinkToken(config, challengeReturnPurpose, sessionId, token);
}

/**
 * Where the engine's public API is reachable by a browser: PUBLIC_BASE_URL when set, else the base
 * URL the HTTP layer saw the call arrive on (passed along by the caller), else HOST:PORT.
 */
export function engineBaseUrl(
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>,
  seenByApi?: string | null,
): string {
  const base = config.PUBLIC_BASE_URL ?? seenByApi ?? `http://${config.HOST}:${config.PORT}`;
  return base.replace(/\/+$/, '');
}

/** The base URL a request reached the API on (scheme and Host header), for callers that pass it on. */
export function baseUrlSeenBy(req: { protocol: string; get(name: string): string | undefined }): string | null {
  const host = req.get('host');
  return host ? `${req.protocol}://${host}` : null;
}

export function returnUrlOf(config: Config, sessionId: string, seenByApi?: string | null): string {
  const url = new URL(`${engineBaseUrl(config, seenByApi)}/api/public/v1/threeds/${sessionId}/return`);
  url.searchParams.set('token', returnToken(config, sessionId));
  return url.toString();
}

/** The 3DS session a payment's own 3DS step creates: derived from the payment id, so a retried activity finds it. */
export function paymentSessionId(paymentId: string): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const digest = createHash('sha256').update(`threeds-session\n${paymentId}`).digest();
  let out = '';
  for (let i = 0; out.length < 20; i++) out += alphabet[digest[i % digest.length]! % 62];
  return `3ds_${out}`;
}
