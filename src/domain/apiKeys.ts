import { createHash } from 'node:crypto';
import { randomBase62 } from './ids';

export type KeyKind = 'partner' | 'crm' | 'processing';
export type Mode = 'test' | 'live';
export type Role = 'org:admin' | 'org:member';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const tokenPattern = /^(tp_sk|sk_crm)_(test|live)_[0-9A-Za-z]{20,64}$/;

/** Mints a token in its family's format: `sk_crm_<mode>_…` for CRM, `tp_sk_<mode>_…` otherwise. */
export function mintToken(kind: KeyKind, mode: Mode): string {
  const family = kind === 'crm' ? 'sk_crm' : 'tp_sk';
  return `${family}_${mode}_${randomBase62(40)}`;
}

/** Whether a bearer value is shaped like any key this API issues (new formats or legacy UUID). */
export function isWellFormedToken(token: string): boolean {
  return tokenPattern.test(token) || isLegacyUuidToken(token);
}

/** Whether a bearer value is an older-format CRM token: a bare UUID. */
export function isLegacyUuidToken(token: string): boolean {
  return uuidPattern.test(token);
}

/**
 * The form a token is hashed in. A UUID names the same value in either case (the CRM printed
 * some in upper case), so legacy tokens are lower-cased; the new formats are case-sensitive.
 */
export function canonicalToken(token: string): string {
  return isLegacyUuidToken(token) ? token.toLowerCase() : token;
}

/** SHA-256 is right for high-entropy tokens: a slow hash adds nothing against 238-bit secrets. */
export function hashToken(token: string): string {
  return createHash('sha256').update(canonicalToken(token)).digest('hex');
}

/** What is shown after creation instead of the token: its first 12 characters. */
export function tokenPrefix(token: string): string {
  return token.slice(0, 12);
}

/**
 * Its last 4 characters, so keys of one family and mode (whose prefixes are all alike) can be told
 * apart. 4 of 40 random base62 characters leave about 214 bits unknown.
 */
export function tokenLast4(token: string): string {
  return token.slice(-4);
}

/** Stripe-style display of a stored key, `sk_crm_test_…abcd`; keys minted before last4 was kept show `…` alone. */
export function maskedToken(prefix: string, last4: string | null): string {
  return `${prefix}…${last4 ?? ''}`;
}

/**
 * Whether a partner key of `partnerMode` may mint or create things in `requested` mode: a test
 * key stays in test, a live key may also make test keys (docs/api-keys.md).
 */
export function canActInMode(partnerMode: Mode, requested: Mode): boolean {
  return requested === 'test' || partnerMode === 'live';
}

/** The modes a partner key sees in provisioning lists: its own, and test too for live keys. */
export function visibleModes(partnerMode: Mode): Mode[] {
  return partnerMode === 'live' ? ['test', 'live'] : ['test'];
}

/** Processing key labels: partner name plus the external reference, else the account id. */
export function processingKeyLabel(
  partnerName: string,
  externalRef: string | null | undefined,
  accountId: string,
): string {
  const reference = externalRef?.trim() ? externalRef.trim() : accountId;
  return `${partnerName} ${reference}`;
}
