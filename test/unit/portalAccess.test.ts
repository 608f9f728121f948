import { isDomainError } from '../../src/errors';
import { assertSameStore, requireCustomerAccount, requirePortalAction } from '../../src/portal/access';
import { sessionRefusal, type PortalSessionContext } from '../../src/portal/session';

const customerSession: PortalSessionContext = {
  sessionId: 'ps_1',
  accountId: 'acc_1',
  mode: 'test',
  storeId: 'store_a',
  kind: 'customer',
  customerId: 'cus_1',
  emailVerified: true,
  allowedActions: [],
  offerTargetId: null,
};
const offerSession: PortalSessionContext = {
  ...customerSession,
  kind: 'offer',
  emailVerified: false,
  allowedActions: ['switch'],
  offerTargetId: 'sub_1',
};

/** The code a call refuses with (a forbidden DomainError), or null when it passes. */
function refusalOf(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'forbidden') throw error;
    return error.code;
  }
}

describe('portal access rules', () => {
  it.each([
    ['a verified customer session, any action', customerSession, 'credits.redeem', undefined, null],
    [
      'an unverified customer session',
      { ...customerSession, emailVerified: false },
      'switch',
      undefined,
      'EMAIL_VERIFICATION_REQUIRED',
    ],
    ['an offer session, an action its link lists, on its target', offerSession, 'switch', 'sub_1', null],
    [
      'an offer session, an action its link does not list',
      offerSession,
      'credits.redeem',
      undefined,
      'ACTION_NOT_ALLOWED',
    ],
    ['an offer session, another target', offerSession, 'switch', 'sub_2', 'ACTION_NOT_ALLOWED'],
    [
      'an offer session without a target, any target',
      { ...offerSession, offerTargetId: null },
      'switch',
      'sub_2',
      null,
    ],
  ] as const)('%s', (_label, session, action, targetId, code) => {
    expect(refusalOf(() => requirePortalAction(session, action, targetId))).toBe(code);
  });

  it.each([
    ['a verified customer session', customerSession, null],
    ['an unverified customer session', { ...customerSession, emailVerified: false }, 'EMAIL_VERIFICATION_REQUIRED'],
    ['an offer session, whatever its link allows', { ...offerSession, offerTargetId: null }, 'ACTION_NOT_ALLOWED'],
  ] as const)("the customer's own account: %s", (_label, session, code) => {
    expect(refusalOf(() => requireCustomerAccount(session))).toBe(code);
  });

  it('refuses a target in another store than the session’s', () => {
    expect(refusalOf(() => assertSameStore(customerSession, 'store_a'))).toBeNull();
    expect(refusalOf(() => assertSameStore(customerSession, 'store_b'))).toBe('WRONG_STORE');
  });
});

describe('portal session validity', () => {
  const now = Date.parse('2030-01-01T12:00:00Z');
  it.each([
    ['valid until later', { revokedAt: null, expiresAt: new Date(now + 1) }, null],
    [
      'expiring exactly now',
      { revokedAt: null, expiresAt: new Date(now) },
      'Portal session has expired; sign in again',
    ],
    [
      'signed out (even if not expired)',
      { revokedAt: new Date(now - 10), expiresAt: new Date(now + 60_000) },
      'Portal session has been signed out',
    ],
  ])('%s', (_label, session, refusal) => {
    expect(sessionRefusal(session, now)).toBe(refusal);
  });
});
