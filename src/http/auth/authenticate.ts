import type { NextFunction, Request, Response } from 'express';
import { hashToken, isWellFormedToken, type KeyKind, type Role } from '../../domain/apiKeys';
import { findKeyByTokenHash } from '../../keys/lookup';
import { assertPayfacPartner } from '../../keys/partners';
import type { AppDeps, AuthContext } from '../core/context';
import { forbidden, unauthenticated } from '../../errors';

/**
 * Resolves `Authorization: Bearer <key>` to an AuthContext. Every call reads the key row, so a
 * revocation made by any process is seen by the next request everywhere.
 */
export function authenticate(db: AppDeps['db'], onAuthenticated?: (keyId: string) => void) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    // A request that falls through from one mount to the next is authenticated once.
    if (req.auth) return next();
    const token = bearerToken(req.headers.authorization);
    // No constant-time compare here, and none is needed: the row is found by the SHA-256 of the
    // token through a unique index. Index timing can at most tell an attacker how far the digest
    // of a guess matches a stored digest, and a digest prefix does not lead back to a token
    // (preimage resistance; 238 random bits, 122 for legacy UUIDs), so guessing stays the only way.
    const key = await findKeyByTokenHash(db, hashToken(token));
    if (!key) throw unauthenticated('API key is not valid');
    if (key.status !== 'active') throw unauthenticated('API key has been revoked');
    const auth: AuthContext = {
      keyId: key.id,
      kind: key.kind,
      mode: key.mode,
      role: key.role as Role,
      partnerId: key.partnerId,
      accountId: key.accountId ?? undefined,
      tpaId: key.tpaId ?? undefined,
      storeIds: key.storeIds ?? undefined,
      plan: key.plan ?? 'standard',
    };
    req.auth = auth;
    req.requireAdmin = () => {
      if (auth.role !== 'org:admin') throw forbidden('This operation requires the org:admin role', 'ROLE_REQUIRED');
    };
    // Read only by the routes that declare a partner kind: the key lookup above stays one query.
    req.requirePartnerKind = async () => {
      if (auth.kind !== 'partner') throw forbidden('This operation requires a partner key', 'WRONG_DOMAIN');
      await assertPayfacPartner(db, auth.partnerId);
    };
    onAuthenticated?.(key.id);
    next();
  };
}

function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw unauthenticated('Missing Authorization header: send "Authorization: Bearer <API key>"');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('Malformed Authorization header: expected "Bearer <API key>"');
  const token = match[1]!;
  if (!isWellFormedToken(token)) throw unauthenticated('Malformed API key');
  return token;
}

const domainNames: Record<KeyKind, string> = {
  crm: 'the public API (/api/public/v1)',
  processing: 'the processing API (/api/processing/v1)',
  partner: 'partner provisioning routes',
};

/** Lets only the given key kinds through; any other valid key is in the wrong domain (403). */
export function requireKeyKind(...allowed: KeyKind[]) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const kind = req.auth?.kind;
    if (!kind) throw unauthenticated('Authentication required');
    if (!allowed.includes(kind)) {
      const hint =
        kind === 'partner'
          ? 'partner keys are for provisioning only, not for runtime calls'
          : `a ${kind} key belongs to ${domainNames[kind]}`;
      throw forbidden(`This key cannot be used here: ${hint}`, 'WRONG_DOMAIN');
    }
    next();
  };
}

/** The authenticated caller; only valid behind `authenticate`. */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw unauthenticated('Authentication required');
  return req.auth;
}
