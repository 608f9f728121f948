import type Stripe from 'stripe';
import type { AuthorizeRequest, FollowUpRequest } from '../types';

/** The engine's calls → PaymentIntents API parameters (and Stripe's amount units, both ways). Pure. */
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

/** The refund of a payment; its webhooks name the engine's refund by `engine_key`. */
export function refundParams(request: FollowUpRequest): Stripe.RefundCreateParams {
  return {
    payment_intent: request.processorReference,
    amount: toStripeAmount(request.amount, request.currency),
    metadata: { engine_key: request.idempotencyKey },
  };
}

const fenceMetadata = 'idempotency_fence';

/** A harmless request (a Customer) sent under an authorization's key to claim it (the adapter's fence). */
export function fenceParams(idempotencyKey: string): Stripe.CustomerCreateParams {
  return { description: 'payment-engine idempotency fence', metadata: { [fenceMetadata]: idempotencyKey } };
}
