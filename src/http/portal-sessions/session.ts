import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../../db/prisma';
import { forbidden, notAuthorized } from '../core/errors';
import type { PortalAction } from '../../portal/offerLinks';
import { hashSecret } from '../../portal/tokens';

/** Who is calling the portal, resolved from x-cms-token. */
export interface PortalSessionContext {
  sessionId: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  kind: 'customer' | 'offer';
  customerId: string | null;
  emailVerified: boolean;
  allowedActions: string[];
  /** Offer sessions: the one subscription/membership id `switch` may target (null: any of the customer's). */
  offerTargetId: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    portal?: PortalSessionContext;
  }
}

export const portalTokenHeader = 'x-cms-token';

/** Loads the session for x-cms-token; missing, unknown, expired or revoked tokens are 401. */
export async function loadPortalSession(
  db: Db,
  token: string | undefined,
): Promise<PortalSessionContext & { tokenHash: string }> {
  if (!token || token.trim() === '')
    throw notAuthorized('Missing x-cms-token header: sign in at /api/v1/cms/session/login');
  const tokenHash = hashSecret(token.trim());
  const session = await db.portalSession.findUnique({ where: { tokenHash } });
  if (!session) throw notAuthorized('Portal session token is not valid');
  if (session.revokedAt) throw notAuthorized('Portal session has been signed out');
  if (session.expiresAt.getTime() <= Date.now()) throw notAuthorized('Portal session has expired; sign in again');
  return {
    tokenHash,
    sessionId: session.id,
    accountId: session.accountId,
    mode: session.mode,
    storeId: session.storeId,
    kind: session.kind,
    customerId: session.customerId,
    emailVerified: session.emailVerified,
    allowedActions: session.allowedActions,
    offerTargetId: session.offerRef,
  };
}

/**
 * Middleware for /api/v1/portal: resolves the session and, when the caller names a store
 * (x-store-id header), refuses a session of another store with 403.
 */
export function requirePortalSession(db: Db) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const session = await loadPortalSession(db, req.header(portalTokenHeader));
    const store = req.header('x-store-id');
    if (store !== undefined && store !== session.storeId)
      throw forbidden('This portal session belongs to another store', 'WRONG_STORE');
    req.portal = session;
    next();
  };
}

export function portalSessionOf(req: Request): PortalSessionContext & { customerId: string } {
  const session = req.portal;
  if (!session) throw notAuthorized('Portal session required');
  if (!session.customerId) throw forbidden('This session is not linked to a customer', 'CUSTOMER_REQUIRED');
  return session as PortalSessionContext & { customerId: string };
}

/**
 * Customer-account operations need an e-mail-verified session; an offer session may only do the
 * actions its link lists (and, for a switch, only on the link's target).
 */
export function requirePortalAction(session: PortalSessionContext, action: PortalAction, targetId?: string): void {
  if (session.kind === 'customer') {
    if (!session.emailVerified)
      throw forbidden('This operation needs an e-mail-verified session', 'EMAIL_VERIFICATION_REQUIRED');
    return;
  }
  if (!session.allowedActions.includes(action))
    throw forbidden(`This offer link does not allow ${action}`, 'ACTION_NOT_ALLOWED');
  if (targetId !== undefined && session.offerTargetId !== null && session.offerTargetId !== targetId) {
    throw forbidden('This offer link is for another subscription or membership', 'ACTION_NOT_ALLOWED');
  }
}

/** A target in another store than the session's is refused, never shown. */
export function assertSameStore(session: PortalSessionContext, storeId: string): void {
  if (storeId !== session.storeId) throw forbidden('This portal session belongs to another store', 'WRONG_STORE');
}
