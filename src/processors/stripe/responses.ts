import type Stripe from 'stripe';
import { declineCategoryOf, type DeclineCode } from '../declineCodes';
import type { AuthenticationResult, AuthorizeResult, FollowUpResult, LookupResult } from '../types';
import { classifyStripeCode } from './codes';
import { fromStripeAmount } from './requests';

/** PaymentIntents and refusals Stripe answered → the engine's results. Pure. */
type PaymentIntentView = Pick<Stripe.PaymentIntent, 'id' | 'status' | 'amount' | 'amount_received' | 'currency'> & {
  last_payment_error?: Pick<Stripe.PaymentIntent.LastPaymentError, 'code' | 'decline_code' | 'message'> | null;
  next_action?: { type: string; redirect_to_url?: { url: string | null } | null } | null;
};

export function declined(vendorCode: string, message: string, processorReference?: string): AuthorizeResult {
  const code = classifyStripeCode(vendorCode);
  return {
    outcome: 'declined',
    code,
    category: declineCategoryOf(code),
    message: `${message} (stripe: ${vendorCode})`,
    ...(processorReference ? { processorReference } : {}),
  };
}

/** The PaymentIntent a confirmed create answered; `undefined` when its state says nothing final (processing). */
export function authorizeResultOf(intent: PaymentIntentView): AuthorizeResult | undefined {
  switch (intent.status) {
    case 'succeeded':
      return { outcome: 'approved', processorReference: intent.id, captured: true };
    case 'requires_capture':
      return { outcome: 'approved', processorReference: intent.id, captured: false };
    case 'requires_action': {
      const redirect = intent.next_action?.redirect_to_url?.url;
      if (intent.next_action?.type === 'redirect_to_url' && redirect)
        return { outcome: 'requires_action', processorReference: intent.id, action: { url: redirect, method: 'GET' } };
      return {
        outcome: 'requires_3ds',
        code: 'authentication_required',
        message: 'Stripe asks for 3-D Secure authentication (requires_action)',
      };
    }
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      return declined(error?.decline_code ?? error?.code ?? 'card_declined', error?.message ?? 'Declined', intent.id);
    }
    default:
      return undefined;
  }
}

/** A step-up's PaymentIntent read back: final, or `pending` while the shopper is still at the authentication page. */
export function authenticationResultOf(intent: PaymentIntentView): AuthenticationResult {
  if (
    intent.status === 'requires_action' ||
    intent.status === 'processing' ||
    intent.status === 'requires_confirmation'
  )
    return { outcome: 'pending' };
  if (intent.status === 'canceled')
    return {
      outcome: 'declined',
      code: 'authentication_timeout',
      category: declineCategoryOf('authentication_timeout'),
      message: 'The PaymentIntent was canceled before the shopper authenticated (stripe: canceled)',
      processorReference: intent.id,
    };
  const result = authorizeResultOf(intent);
  if (!result || result.outcome === 'requires_action') return { outcome: 'pending' };
  return result;
}

export function lookupResultOf(
  intent: PaymentIntentView,
  charge: { amount_captured: number; amount_refunded: number } | null,
): LookupResult {
  const found = (status: Extract<LookupResult, { outcome: 'found' }>['status'], amount: number) => ({
    outcome: 'found' as const,
    processorReference: intent.id,
    status,
    amount: fromStripeAmount(amount, intent.currency),
  });
  switch (intent.status) {
    case 'succeeded':
      return charge && charge.amount_captured > 0 && charge.amount_refunded >= charge.amount_captured
        ? found('refunded', intent.amount_received)
        : found('captured', intent.amount_received);
    case 'requires_capture':
      return found('authorized', intent.amount);
    case 'canceled':
      return found('voided', intent.amount);
    case 'requires_payment_method':
      return found('declined', intent.amount);
    default:
      // requires_action, requires_confirmation, processing: not final, it may still charge.
      return found('pending', intent.amount);
  }
}

export function followUpFailure(code: DeclineCode, message: string): FollowUpResult {
  return { outcome: 'failed', code, category: declineCategoryOf(code), message };
}
