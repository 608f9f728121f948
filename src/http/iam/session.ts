import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../../db/prisma';
import { isWellFormedToken } from '../../domain/apiKeys';
import type { Grants } from '../../iam/policies';
import type { SessionVerifier } from '../../iam/sessions';
import { loadGrants, resolveSessionUser } from '../../iam/users';
import type { User } from '../../generated/prisma/client';
import { notAuthorized } from '../core/errors';

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

/** The session JWT: `Authorization: Bearer …`, else the `__session` cookie; API keys never pass (spec part 5.11). */
function sessionToken(req: Request): string {
  const header = req.headers.authorization;
  if (header !== undefined && header.trim() !== '') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match)
      throw notAuthorized(`Malformed Authorization header: expected "Bearer <session token>". ${takesSessions}`);
    const token = match[1]!;
    if (isWellFormedToken(token))
      throw notAuthorized(`API keys are not accepted here. ${takesSessions}: sign in with the identity provider`);
    return token;
  }
  const fromCookie = cookie(req.headers.cookie, '__session');
  if (fromCookie) return fromCookie;
  throw notAuthorized(
    `Missing session: send "Authorization: Bearer <session token>" or the __session cookie. ${takesSessions}`,
  );
}

/** Verifies the session and loads the user's roles for the policies; every failure is 401 NOT_AUTHORIZED. */
export function requireUserSession(db: Db, verify: SessionVerifier) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const session = await verify(sessionToken(req));
    const user = await resolveSessionUser(db, session);
    req.iam = { user, grants: await loadGrants(db, user.id) };
    next();
  };
}

export function iamOf(req: Request): { user: User; grants: Grants } {
  if (!req.iam) throw notAuthorized(`Authentication required. ${takesSessions}`);
  return req.iam;
}
