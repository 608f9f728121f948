import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import { randomBase62 } from '../domain/ids';
import { vaultKey, vaultKeys } from '../vault/cardVault';

/** Portal session tokens (x-cms-token): random, only their SHA-256 is stored. */
export function mintPortalToken(): string {
  return `cms_${randomBase62(40)}`;
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A 6-digit one-time login code. */
export function newLoginCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Codes are hashed with their login id, so equal codes of two logins never share a hash. */
export function hashLoginCode(loginId: string, code: string): string {
  return hashSecret(`${loginId}:${code}`);
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Offer links are signed with PORTAL_LINK_SECRET, or a key derived from the card vault key. */
export function offerLinkSecret(config: Config): Buffer {
  if (config.PORTAL_LINK_SECRET) return Buffer.from(config.PORTAL_LINK_SECRET, 'utf8');
  return createHmac('sha256', vaultKey(config)).update('portal-offer-links').digest();
}

/** The secrets an offer link may be signed with: links signed before a vault key rotation stay valid. */
export function offerLinkSecrets(config: Config): Buffer[] {
  if (config.PORTAL_LINK_SECRET) return [offerLinkSecret(config)];
  return vaultKeys(config).map((key) => createHmac('sha256', key).update('portal-offer-links').digest());
}
