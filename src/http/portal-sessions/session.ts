import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../core/context';
import { forbidden, unauthenticated } from '../../errors';
import { findPortalSession, type CustomerPortalSession, type PortalSessionContext } from '../../portal/session';

declare module 'express-serve-static-core' {
  interface Request {
    portal?: PortalSessionContext;
  }
}

export const portalTokenHeader = 'x-cms-token';

/** Loads the session for x-cms-token; missing, unknown, expired or revoked tokens are 401. */
export async function loadPortalSession(db: AppDeps['db'], token: string | undefined): Promise<PortalSessionContext> {
  if (!token || token.trim() === '')
    throw unauthenticated('Missing x-cms-token header: sign in at /api/v1/cms/session/login');
  return findPortalSession(db, token.trim());
}

/**
 * Middleware for /api/v1/portal: resolves the session and, when the caller names a store
 * (x-store-id header), refuses a session of another store with 403.
 */
export function requirePortalSession(db: AppDeps['db']) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const session = await loadPortalSession(db, req.header(portalTokenHeader));
    const store = req.header('x-store-id');
    if (store !== undefined && store !== session.storeId)
      throw forbidden('This portal session belongs to another store', 'WRONG_STORE');
    req.portal = session;
    next();
  };
}

export function portalSessionOf(req: Request): CustomerPortalSession {
  const session = req.portal;
  if (!session) throw unauthenticated('Portal session required');
  if (!session.customerId) throw forbidden('This session is not linked to a customer', 'CUSTOMER_REQUIRED');
  return session as CustomerPortalSession;
}
