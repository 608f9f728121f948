import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config';
import { businessId } from '../../payments/startPayment';
import { engineBaseUrl } from '../../threeds/returnLink';
import { vaultKey, vaultKeys } from '../../vault/cardVault';
import type { KeySource } from '../../vault/keyring';

/**
 * Links to the hosted payment page and the page's form tokens. A shopper's browser carries no API
 * key, so the link is signed: `t = <expiry in unix seconds>.<HMAC(session id, expiry)>` under a key
 * derived from the engine's encryption key, like the 3-D Secure return link. The expiry is the
 * session's own, so the link stops working with the session. Links signed before a key rotation
 * stay valid while the old key is in ENCRYPTION_KEYS_PREVIOUS.
 */
function keyUnder(masterKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', masterKey).update(`hosted-checkout-${purpose}-v1`).digest();
}

function macUnder(masterKey: Buffer, purpose: string, parts: string[]): string {
  return createHmac('sha256', keyUnder(masterKey, purpose)).update(parts.join('\n')).digest('base64url');
}

function matchesAnyKey(source: KeySource, purpose: string, parts: string[], given: string): boolean {
  const bytes = Buffer.from(given);
  return vaultKeys(source).some((key) => {
    const expected = Buffer.from(macUnder(key, purpose, parts));
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  });
}

/** The `t` parameter of a session's links. */
export function linkToken(source: KeySource, sessionId: string, expiresAt: Date): string {
  const expires = String(Math.ceil(expiresAt.getTime() / 1000));
  return `${expires}.${macUnder(vaultKey(source), 'link', [sessionId, expires])}`;
}

export type LinkCheck = 'valid' | 'invalid' | 'expired';

/** Whether `t` was signed for this session, and whether its expiry has passed. */
export function checkLinkToken(source: KeySource, sessionId: string, token: unknown, now = Date.now()): LinkCheck {
  if (typeof token !== 'string' || token.length > 128) return 'invalid';
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || !matchesAnyKey(source, 'link', [sessionId, match[1]!], match[2]!)) return 'invalid';
  return Number(match[1]) * 1000 <= now ? 'expired' : 'valid';
}

export const pagePath = (sessionId: string) => `/checkout/${sessionId}`;

/** Where the hosted page of a session lives: on the store's verified domain when given, else the engine's base URL. */
export function hostedPageUrl(
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'> & KeySource,
  session: { id: string; expiresAt: Date },
  base: string,
): string {
  const url = new URL(`${base.replace(/\/+$/, '')}${pagePath(session.id)}`);
  url.searchParams.set('t', linkToken(config, session.id, session.expiresAt));
  return url.toString();
}

export function engineBase(config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>, seenByApi: string | null) {
  return engineBaseUrl(config, seenByApi);
}

/** A page of the session's flow (`/result`, …) on the origin the shopper is on, carrying the link token. */
export function flowUrl(
  origin: string,
  sessionId: string,
  token: string,
  page: string,
  params: Record<string, string> = {},
) {
  const url = new URL(`${origin}${pagePath(sessionId)}${page}`);
  url.searchParams.set('t', token);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * Cross-site request protection: a random nonce in an HttpOnly, SameSite=Strict cookie and, in the
 * form, an HMAC binding that nonce to the session. A page on another site can neither read the
 * cookie nor compute the field, and a browser sends no Strict cookie on its cross-site post.
 */
export const csrfCookieName = 'hosted_checkout_csrf';

export function newCsrfNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function csrfToken(source: KeySource, sessionId: string, nonce: string): string {
  return macUnder(vaultKey(source), 'csrf', [sessionId, nonce]);
}

export function isValidCsrf(source: KeySource, sessionId: string, nonce: unknown, token: unknown): boolean {
  if (typeof nonce !== 'string' || !/^[A-Za-z0-9_-]{24}$/.test(nonce)) return false;
  if (typeof token !== 'string' || token.length !== 43) return false;
  return matchesAnyKey(source, 'csrf', [sessionId, nonce], token);
}

/** One render of the card form: a double click or a reload re-sends it, a "try another card" gets a new one. */
export function newAttemptId(): string {
  return randomBytes(16).toString('base64url');
}

export const attemptIdPattern = /^[A-Za-z0-9_-]{22}$/;

/**
 * The payment (and vaulted card) of one attempt: derived from the session and the attempt, as pay-v2
 * derives a payment id from its Idempotency-Key, so every post of the same form starts or joins the
 * same payment workflow and never charges twice.
 */
export function attemptPaymentId(accountId: string, mode: string, sessionId: string, attemptId: string): string {
  return businessId('payment', `hosted-checkout:${accountId}:${mode}`, `${sessionId}\n${attemptId}`);
}

export function attemptInstrumentId(accountId: string, mode: string, sessionId: string, attemptId: string): string {
  return businessId('paymentInstrument', `hosted-checkout:${accountId}:${mode}`, `${sessionId}\n${attemptId}`);
}
