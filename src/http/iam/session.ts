import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../../db/prisma';
import { isWellFormedToken } from '../../domain/apiKeys';
import type { Grants } from '../../iam/policies';
import type { SessionVerifier } from '../../iam/sessions';
import { loadGrants, resolveSessionUser } from '../../iam/users';
import type { User } from '../../generated/prisma/client';
import { forbidden, unauthenticated } from '../../errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** The signed-in user and their roles (identity management only). */
    iam?: { user: User; grants: Grants };
  }
}

const takesSessions = 'Identity management takes user sessions only';

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name && value.length) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** The session JWT: `Authorization: Bearer …`, else the `__session` cookie; API keys never pass (docs/iam.md). */
function sessionToken(req: Request): { token: string; fromCookie: boolean } {
  const header = req.headers.authorization;
  if (header !== undefined && header.trim() !== '') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match)
      throw unauthenticated(`Malformed Authorization header: expected "Bearer <session token>". ${takesSessions}`);
    const token = match[1]!;
    if (isWellFormedToken(token))
      throw unauthenticated(`API keys are not accepted here. ${takesSessions}: sign in with the identity provider`);
    return { token, fromCookie: false };
  }
  const fromCookie = cookie(req.headers.cookie, '__session');
  if (fromCookie) return { token: fromCookie, fromCookie: true };
  throw unauthenticated(
    `Missing session: send "Authorization: Bearer <session token>" or the __session cookie. ${takesSessions}`,
  );
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where the browser says a request comes from: its Origin header, else the origin of its Referer. */
function originOf(req: Request): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined) return origin;
  const referer = req.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** Same origin as the API (the host the browser addressed), or one the operator allowed. */
function isAllowedOrigin(origin: string, req: Request, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.host === req.headers.host;
  } catch {
    return false; // `Origin: null` (sandboxed frames, some redirects) and anything unparsable
  }
}

/**
 * Cross-site request defence for the cookie: a browser attaches `__session` to requests any site
 * makes, so a state-changing request authenticated by it must come from an allowed origin (Origin,
 * or Referer when a browser sends no Origin). A bearer token is never attached by the browser on
 * its own, so bearer requests are not checked.
 */
function refuseCrossSite(req: Request, allowed: ReadonlySet<string>): void {
  if (safeMethods.has(req.method)) return;
  const origin = originOf(req);
  if (origin !== undefined && isAllowedOrigin(origin, req, allowed)) return;
  throw forbidden(
    `${origin === undefined ? 'This request has no Origin or Referer' : `Origin ${origin} is not allowed`}: a change made with the __session cookie must come from the API's own origin or one in IAM_ALLOWED_ORIGINS. Non-browser clients send the session as "Authorization: Bearer <session token>"`,
    'CROSS_SITE_REQUEST_REFUSED',
  );
}

/**
 * Verifies the session and loads the user's roles for the policies; every failure is 401
 * NOT_AUTHORIZED, a cookie-authenticated change from another site 403 CROSS_SITE_REQUEST_REFUSED.
 * `allowedOrigins`: origins besides the API's own that may send cookie-authenticated changes.
 */
export function requireUserSession(db: Db, verify: SessionVerifier, allowedOrigins: readonly string[] = []) {
  const allowed = new Set(allowedOrigins);
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const { token, fromCookie } = sessionToken(req);
    const session = await verify(token);
    if (fromCookie) refuseCrossSite(req, allowed);
    const user = await resolveSessionUser(db, session);
    req.iam = { user, grants: await loadGrants(db, user.id) };
    next();
  };
}

export function iamOf(req: Request): { user: User; grants: Grants } {
  if (!req.iam) throw unauthenticated(`Authentication required. ${takesSessions}`);
  return req.iam;
}
