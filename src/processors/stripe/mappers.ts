import type Stripe from 'stripe';
import { z } from 'zod';
import { declineCategoryOf, type DeclineCode } from '../declineCodes';
import { endpointSchema } from '../endpoint';
import type { AuthenticationResult, AuthorizeRequest, AuthorizeResult, FollowUpResult, LookupResult } from '../types';
import { classifyStripeCode } from './codes';

/** Pure mapping between the engine's processor contract and Stripe's PaymentIntents API. No I/O here. */
export const stripeCredentialsSchema = z
  .object({
    secretKey: z
      .string()
      .regex(
        /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,255}$/,
        'secretKey must be a Stripe secret key (sk_test_…, sk_live_…)',
      ),
    webhookSecret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{8,255}$/, 'webhookSecret must be a Stripe signing secret (whsec_…)')
      .optional(),
    endpoint: endpointSchema.optional(),
  })
  .strict();

export type StripeCredentials = z.infer<typeof stripeCredentialsSchema>;

/** A `…_test_…` key reaches Stripe's test mode, a `…_live_…` key moves real money: each only on a processor of its mode. */
export function stripeCredentialsModeProblem(credentials: Record<string, string>, mode: 'test' | 'live') {
  const keyMode = /^(sk|rk)_live_/.test(credentials.secretKey ?? '') ? 'live' : 'test';
  if (keyMode === mode) return undefined;
  return {
    field: 'secretKey',
    message:
      mode === 'live'
        ? 'a live processor needs a live Stripe key (sk_live_… or rk_live_…); a test key never reaches a real card network'
        : 'a test processor needs a test Stripe key (sk_test_… or rk_test_…); a live key moves real money',
  };
}

/** Stripe takes ISK and UGX in two-decimal units (multiples of 100); every other currency as ISO 4217 minor units. */
const twoDecimalAtStripe = new Set(['ISK', 'UGX']);

export function toStripeAmount(amount: number, currency: string): number {
  return twoDecimalAtStripe.has(currency.toUpperCase()) ? amount * 100 : amount;
}

export function fromStripeAmount(amount: number, currency: string): number {
  return twoDecimalAtStripe.has(currency.toUpperCase()) ? Math.round(amount / 100) : amount;
}

/** Raw card data (an orchestrator's Stripe account needs raw card data access); the SDK's types omit it. */
type CreateParams = Stripe.PaymentIntentCreateParams & {
  payment_method_data: Stripe.PaymentIntentCreateParams.PaymentMethodData & {
    card: { number: string; exp_month: number; exp_year: number };
  };
};

/** The metadata every PaymentIntent carries: `lookup` and reversals find it by the attempt's key. */
export const idempotencyKeyMetadata = 'idempotency_key';

/** Stripe requires `transaction_id` (the DS transaction id) with imported 3DS results; without it they cannot be sent. */
export function unusableThreeDs(request: AuthorizeRequest): boolean {
  return request.threeDs !== undefined && !request.threeDs.dsTransID;
}

export function paymentIntentParams(request: AuthorizeRequest): CreateParams {
  const { card, threeDs } = request;
  return {
    amount: toStripeAmount(request.amount, request.currency),
    currency: request.currency.toLowerCase(),
    confirm: true,
    capture_method: request.capture ? 'automatic' : 'manual',
    allowed_payment_method_types: ['card'],
    payment_method_data: {
      type: 'card',
      card: { number: card.number, exp_month: card.expMonth, exp_year: card.expYear },
      ...(card.holderName ? { billing_details: { name: card.holderName } } : {}),
    },
    metadata: { [idempotencyKeyMetadata]: request.idempotencyKey, payment_id: request.paymentId },
    ...(request.initiatedBy === 'merchant' ? { off_session: true } : {}),
    // With a return URL Stripe answers an issuer's demand for authentication with a redirect_to_url
    // next action (step-up); without one, with use_stripe_sdk, which the engine treats as a decline.
    ...(request.returnUrl ? { return_url: request.returnUrl } : {}),
    // Imported (bring-your-own) 3DS results, forwarded unchanged.
    ...(threeDs?.dsTransID
      ? {
          payment_method_options: {
            card: {
              three_d_secure: {
                cryptogram: threeDs.authenticationValue,
                electronic_commerce_indicator: threeDs.eci,
                ares_trans_status: threeDs.transStatus,
                transaction_id: threeDs.dsTransID,
                version: threeDs.messageVersion,
              },
            },
          },
        }
      : {}),
  };
}

/** The search query that finds the PaymentIntent an authorization created under `idempotencyKey`. */
export function searchQueryFor(idempotencyKey: string): string {
  return `metadata['${idempotencyKeyMetadata}']:'${idempotencyKey.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

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

/** A refusal of a capture, cancel or refund → the engine's code; the PaymentIntent's state says why. */
export function followUpRefusalCode(
  operation: 'capture' | 'void' | 'refund',
  vendorCode: string,
  intentStatus: string | undefined,
): DeclineCode {
  if (vendorCode === 'payment_intent_unexpected_state') {
    if (intentStatus === 'succeeded') return operation === 'refund' ? 'refund_exceeds_capture' : 'already_captured';
    if (intentStatus === 'canceled') return 'already_voided';
    if (intentStatus === 'requires_capture' && operation === 'refund') return 'not_captured';
    return 'invalid_request';
  }
  if (vendorCode === 'amount_too_large')
    return operation === 'refund' ? 'refund_exceeds_capture' : 'amount_exceeds_authorization';
  if (vendorCode === 'amount_too_small' || vendorCode === 'parameter_invalid_integer') return 'invalid_amount';
  return classifyStripeCode(vendorCode);
}
