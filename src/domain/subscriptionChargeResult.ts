import { outcomeUnknownCode, type PaymentOutcome } from '../payments/workflowTypes';
import { declineCategoryOf } from '../processors/declineCodes';
import type { SubscriptionChargeResult } from './billingState';

/**
 * A payment's answer as a subscription charge result. Pure: the subscription workflow (renewals
 * run the payment as a child) and the charge activities (switches) both use it.
 */
export function declinedCharge(
  paymentId: string | null,
  declineCode: string,
  hardDecline: boolean,
  cardBrand: string | null,
): SubscriptionChargeResult {
  return { status: 'declined', paymentId, hardDecline, declineCode, redirectUrl: null, cardBrand };
}

export function chargeResultOf(outcome: PaymentOutcome, cardBrand: string | null): SubscriptionChargeResult {
  if (outcome.kind === 'rejected') return declinedCharge(null, outcome.error.code, true, cardBrand);
  if (outcome.status === 'succeeded')
    return {
      status: 'paid',
      paymentId: outcome.paymentId,
      hardDecline: false,
      declineCode: null,
      redirectUrl: null,
      cardBrand,
    };
  if (outcome.status === 'requires_action') {
    return {
      status: 'requires_action',
      paymentId: outcome.paymentId,
      hardDecline: false,
      declineCode: null,
      redirectUrl: outcome.redirectUrl,
      cardBrand,
    };
  }
  const code = outcome.declineCode ?? 'declined';
  // A charge that may still stand at the processor (reversal unconfirmed, left for review) is
  // never reattempted on the same card: a retry could charge the customer twice.
  return declinedCharge(
    outcome.paymentId,
    code,
    declineCategoryOf(code) === 'hard_decline' || code === outcomeUnknownCode,
    cardBrand,
  );
}
