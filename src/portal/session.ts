import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import { unauthenticated } from '../errors';
import { hashSecret, mintPortalToken } from './tokens';

/** Who is calling the portal, resolved from its session token (x-cms-token). */
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

/** A session linked to a customer: what every customer operation of the portal needs. */
export type CustomerPortalSession = PortalSessionContext & { customerId: string };

/** Why a stored session no longer signs anyone in, or null while it is valid at `nowMs`. */
export function sessionRefusal(session: { revokedAt: Date | null; expiresAt: Date }, nowMs: number): string | null {
  if (session.revokedAt) return 'Portal session has been signed out';
  if (session.expiresAt.getTime() <= nowMs) return 'Portal session has expired; sign in again';
  return null;
}

/** The session of a token; unknown, revoked and expired tokens are refused (unauthenticated). */
export async function findPortalSession(db: Db, token: string): Promise<PortalSessionContext> {
  const session = await db.portalSession.findUnique({ where: { tokenHash: hashSecret(token) } });
  if (!session) throw unauthenticated('Portal session token is not valid');
  const refusal = sessionRefusal(session, Date.now());
  if (refusal) throw unauthenticated(refusal);
  return {
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

export interface NewPortalSession {
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  kind: 'customer' | 'offer';
  customerId: string | null;
  email?: string | null;
  emailVerified: boolean;
  allowedActions: string[];
  offerRef?: string | null;
}

/** Stores a new session (only the token's hash) and answers the token, shown to the caller once. */
export async function openPortalSession(db: Db, expiresAt: Date, data: NewPortalSession) {
  const token = mintPortalToken();
  await db.portalSession.create({
    data: { id: newId('portalSession'), tokenHash: hashSecret(token), expiresAt, ...data },
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    storeId: data.storeId,
    customerId: data.customerId,
    kind: data.kind,
    emailVerified: data.emailVerified,
    allowedActions: data.allowedActions,
  };
}

/** Signs a session out: its token is refused from now on. */
export async function revokePortalSession(db: Db, sessionId: string): Promise<void> {
  await db.portalSession.update({ where: { id: sessionId }, data: { revokedAt: new Date() } });
}
