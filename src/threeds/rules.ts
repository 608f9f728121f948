/**
 * Pure 3-D Secure rules (docs/threeds.md). No I/O: the HTTP layer, activities and the
 * workflow all import these.
 */
export const transStatuses = ['Y', 'A', 'N', 'U', 'R', 'I'] as const;
export type TransStatus = (typeof transStatuses)[number];

export const sessionTypes = ['customer', 'merchant'] as const;
export type ThreeDsSessionType = (typeof sessionTypes)[number];

export type ThreeDsSessionStatus = 'pending' | 'challenge_required' | 'authenticated' | 'failed';
export type ThreeDsSessionSource = 'values' | 'authenticate' | 'merchant_session' | 'payment';

export const authenticationTypes = ['payment-transaction', 'recurring-transaction', 'installment-transaction'] as const;
export type AuthenticationType = (typeof authenticationTypes)[number];

/**
 * `1.0.2` or `2.d.d` with exactly one digit per part. So `2.2.0` and `2.1.0` pass,
 * while `2.10.1` (two digits in the middle) and `3.0` are refused.
 */
export const messageVersionPattern = /^(1\.0\.2|2\.\d\.\d)$/;
export const defaultMessageVersion = '2.2.0';
export const ecPattern = /^\d{2}$/;

/** Y (authenticated) and A (attempted, network stand-in) make a usable session; the rest fail. */
export function isSuccessfulTransStatus(transStatus: string): boolean {
  return transStatus === 'Y' || transStatus === 'A';
}

export function statusForTransStatus(transStatus: string): 'authenticated' | 'failed' {
  return isSuccessfulTransStatus(transStatus) ? 'authenticated' : 'failed';
}

/** The acquirer rejects a 2.x Y/A result without dsTransID, so we refuse it first. */
export function dsTransIdRequired(messageVersion: string, transStatus: string): boolean {
  return messageVersion.startsWith('2.') && isSuccessfulTransStatus(transStatus);
}

/**
 * A merchant (3RI) session pairs with a merchant-initiated charge, and a customer session with a
 * customer-initiated one; returns the refusal message or null.
 */
export function initiatedByMismatch(sessionType: string, initiatedBy: 'customer' | 'merchant'): string | null {
  if (sessionType === 'merchant' && initiatedBy !== 'merchant') {
    return 'threedsSessionId refers to a merchant (3RI) session: it can only be used with initiatedBy "merchant"';
  }
  if (sessionType === 'customer' && initiatedBy !== 'customer') {
    return 'threedsSessionId refers to a customer (cardholder) session: use initiatedBy "customer", or a merchant session from /threeds/create-merchant-session';
  }
  return null;
}

/** How long a cardholder has to finish a challenge before the session (and its payment) fails. */
export const challengeTimeoutMs = 15 * 60 * 1000;
export const challengeTimeout = '15 minutes';
