import { forbidden } from '../errors';
import type { PortalAction } from './offerLinks';
import type { PortalSessionContext } from './session';

function requireVerifiedEmail(session: PortalSessionContext): void {
  if (!session.emailVerified)
    throw forbidden('This operation needs an e-mail-verified session', 'EMAIL_VERIFICATION_REQUIRED');
}

/**
 * Customer-account operations need an e-mail-verified session; an offer session may only do the
 * actions its link lists (and, for a switch, only on the link's target).
 */
export function requirePortalAction(session: PortalSessionContext, action: PortalAction, targetId?: string): void {
  if (session.kind === 'customer') return requireVerifiedEmail(session);
  if (!session.allowedActions.includes(action))
    throw forbidden(`This offer link does not allow ${action}`, 'ACTION_NOT_ALLOWED');
  if (targetId !== undefined && session.offerTargetId !== null && session.offerTargetId !== targetId) {
    throw forbidden('This offer link is for another subscription or membership', 'ACTION_NOT_ALLOWED');
  }
}

/**
 * The customer's own account (what they own; cancel, resume): an e-mail-verified customer session
 * only. An offer link opens the actions it lists, never the account.
 */
export function requireCustomerAccount(session: PortalSessionContext): void {
  if (session.kind !== 'customer')
    throw forbidden("An offer link does not open the customer's account", 'ACTION_NOT_ALLOWED');
  requireVerifiedEmail(session);
}

/** A target in another store than the session's is refused, never shown. */
export function assertSameStore(session: PortalSessionContext, storeId: string): void {
  if (storeId !== session.storeId) throw forbidden('This portal session belongs to another store', 'WRONG_STORE');
}
