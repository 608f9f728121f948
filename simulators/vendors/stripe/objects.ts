import { randomBytes } from 'node:crypto';
import { vendorDocument } from '../documents';

/**
 * Stripe objects as the simulator answers them: Stripe's own example objects
 * (`stripe/fixtures3.json`), changed only in the fields the simulation decides (ids, amounts,
 * status, metadata, links between objects).
 */
export type StripeObject = Record<string, unknown>;

interface Fixtures {
  resources: Record<string, StripeObject>;
}

function fixture(name: string): StripeObject {
  const object = vendorDocument<Fixtures>('stripe/fixtures3.json').resources[name];
  if (!object) throw new Error(`stripe fixture ${name} is missing`);
  return structuredClone(object);
}

export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, '0')}`;
}

const now = () => Math.floor(Date.now() / 1000);

export interface IntentFields {
  amount: number;
  currency: string;
  captureMethod: 'automatic' | 'manual';
  metadata: Record<string, string>;
}

export function paymentIntentObject(fields: IntentFields): StripeObject {
  const id = stripeId('pi');
  return {
    ...fixture('payment_intent'),
    id,
    object: 'payment_intent',
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: 0,
    currency: fields.currency,
    capture_method: fields.captureMethod,
    confirmation_method: 'automatic',
    client_secret: `${id}_secret_${stripeId('s').slice(2)}`,
    created: now(),
    canceled_at: null,
    cancellation_reason: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: fields.metadata,
    next_action: null,
    payment_method: stripeId('pm'),
    payment_method_types: ['card'],
    automatic_payment_methods: null,
    status: 'requires_payment_method',
  };
}

export function chargeObject(intent: StripeObject, card: { last4: string; expMonth: number; expYear: number }) {
  const base = fixture('charge');
  const details = base.payment_method_details as { card: StripeObject };
  return {
    ...base,
    id: stripeId('ch'),
    amount: intent.amount,
    amount_captured: 0,
    amount_refunded: 0,
    captured: false,
    created: now(),
    currency: intent.currency,
    metadata: intent.metadata,
    paid: true,
    payment_intent: intent.id,
    payment_method: intent.payment_method,
    payment_method_details: {
      ...details,
      card: { ...details.card, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear },
    },
    refunded: false,
    refunds: { object: 'list', data: [], has_more: false, url: '/v1/refunds' },
    status: 'succeeded',
  } as StripeObject;
}

export function refundObject(intent: StripeObject, amount: number, status: string): StripeObject {
  return {
    ...fixture('refund'),
    id: stripeId('re'),
    amount,
    charge: intent.latest_charge,
    created: now(),
    currency: intent.currency,
    metadata: {},
    payment_intent: intent.id,
    status,
  };
}

export function customerObject(params: { description?: string; metadata?: Record<string, string> }): StripeObject {
  return {
    ...fixture('customer'),
    id: stripeId('cus'),
    created: now(),
    description: params.description ?? null,
    discount: null,
    metadata: params.metadata ?? {},
  };
}

/** Stripe's error body: `{error: {type, code, decline_code?, message, …}}`. */
export function errorBody(
  type: string,
  message: string,
  extra: { code?: string; decline_code?: string; param?: string; payment_intent?: StripeObject } = {},
) {
  return {
    error: {
      type,
      message,
      ...extra,
      ...(extra.code ? { doc_url: `https://stripe.com/docs/error-codes/${extra.code.replace(/_/g, '-')}` } : {}),
      request_log_url: `https://dashboard.stripe.com/test/logs/${stripeId('req')}`,
    },
  };
}

/** An Event as Stripe sends it to a webhook endpoint (`data.object` is a snapshot of the object). */
export function eventObject(type: string, object: StripeObject): StripeObject {
  return {
    ...fixture('event'),
    id: stripeId('evt'),
    object: 'event',
    api_version: '2025-10-29.clover',
    created: now(),
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

export function disputeObject(charge: StripeObject, reason: string): StripeObject {
  return {
    ...fixture('dispute'),
    id: stripeId('dp'),
    amount: charge.amount_captured,
    charge: charge.id,
    created: now(),
    currency: charge.currency,
    payment_intent: charge.payment_intent,
    reason,
    status: 'needs_response',
  };
}
