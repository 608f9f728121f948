import Stripe from 'stripe';
import type { ProcessorEvent, ProcessorWebhooks, WebhookDelivery, WebhookVerification } from '../types';
import { fromStripeAmount, idempotencyKeyMetadata } from './requests';

/**
 * Stripe webhooks: `Stripe-Signature` verified by the official SDK (`webhooks.constructEvent`: HMAC
 * of `timestamp.body` with the endpoint's `whsec_…` secret, and the timestamp within 300 s of now,
 * Stripe's default tolerance against replays). Events the engine acts on:
 * - `refund.updated`, `charge.refund.updated`, `refund.failed` (the object is the Refund): status
 *   `succeeded` confirms a pending refund, `failed` / `canceled` fails it (or reopens a confirmed
 *   one). The refund carries the engine's key in `metadata.engine_key` (the adapter sets it).
 * - `charge.dispute.created`: a dispute on the PaymentIntent;
 * - `charge.dispute.closed` with status `won` or `lost`: its outcome (`warning_closed`, an inquiry
 *   that never became a dispute, is ignored).
 * - `payment_intent.succeeded`, `.amount_capturable_updated`, `.payment_failed`, `.canceled`: the
 *   outcome of an authorization; a payment waiting for the shopper's authentication (step-up) is
 *   told to ask Stripe. The PaymentIntent carries the attempt's key in `metadata.idempotency_key`.
 * Every other event is acknowledged and ignored (captures and cancels answer at once at Stripe).
 */
export const stripeToleranceSeconds = 300;

const refundEvents = new Set(['refund.updated', 'charge.refund.updated', 'refund.failed']);

interface RefundObject {
  id: string;
  status?: string | null;
  payment_intent?: string | { id: string } | null;
  metadata?: Record<string, string> | null;
  failure_reason?: string | null;
}

interface DisputeObject {
  id: string;
  amount: number;
  currency: string;
  reason?: string | null;
  status?: string | null;
  payment_intent?: string | { id: string } | null;
}

const authorizationEvents = new Set([
  'payment_intent.succeeded',
  'payment_intent.amount_capturable_updated',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
]);

interface IntentObject {
  id: string;
  metadata?: Record<string, string> | null;
}

const disputeOutcomes: Record<string, 'dispute_won' | 'dispute_lost'> = { won: 'dispute_won', lost: 'dispute_lost' };

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

export function stripeEventToProcessorEvent(event: { id: string; type: string; data: { object: unknown } }) {
  const base = { vendorEventId: event.id, vendorType: event.type };
  const ignored: ProcessorEvent = { ...base, kind: 'ignored', succeeded: true };
  if (refundEvents.has(event.type)) {
    const refund = event.data.object as RefundObject;
    const status = refund.status ?? '';
    if (!['succeeded', 'failed', 'canceled'].includes(status)) return ignored;
    const engineKey = refund.metadata?.engine_key;
    const paymentReference = idOf(refund.payment_intent);
    return {
      ...base,
      kind: 'refund',
      succeeded: status === 'succeeded',
      operationReference: refund.id,
      ...(engineKey ? { engineKey } : {}),
      ...(paymentReference ? { paymentReference } : {}),
      ...(refund.failure_reason ? { reason: refund.failure_reason } : {}),
    } satisfies ProcessorEvent;
  }
  if (authorizationEvents.has(event.type)) {
    const intent = event.data.object as IntentObject;
    const engineKey = intent.metadata?.[idempotencyKeyMetadata];
    if (!engineKey) return ignored;
    return {
      ...base,
      kind: 'authorization',
      succeeded: event.type !== 'payment_intent.payment_failed' && event.type !== 'payment_intent.canceled',
      engineKey,
      paymentReference: intent.id,
    } satisfies ProcessorEvent;
  }
  if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
    const dispute = event.data.object as DisputeObject;
    const kind = event.type === 'charge.dispute.created' ? 'dispute_opened' : disputeOutcomes[dispute.status ?? ''];
    if (!kind) return ignored;
    const paymentReference = idOf(dispute.payment_intent);
    const currency = dispute.currency.toUpperCase();
    return {
      ...base,
      kind,
      succeeded: true,
      operationReference: dispute.id,
      amount: fromStripeAmount(dispute.amount, currency),
      currency,
      ...(paymentReference ? { paymentReference } : {}),
      ...(dispute.reason ? { reason: dispute.reason } : {}),
    } satisfies ProcessorEvent;
  }
  return ignored;
}

/** `receivedAtMs` only for tests of the tolerance; the SDK reads the clock otherwise. */
export function verifyStripeDelivery(delivery: WebhookDelivery, receivedAtMs?: number): WebhookVerification {
  const secret = delivery.credentials.webhookSecret;
  if (!secret) return { ok: false, reason: 'no_secret', message: 'the processor has no webhookSecret' };
  const header = delivery.headers['stripe-signature'];
  if (!header) return { ok: false, reason: 'bad_signature', message: 'the Stripe-Signature header is missing' };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      delivery.rawBody,
      header,
      secret,
      stripeToleranceSeconds,
      undefined,
      receivedAtMs,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      return { ok: false, reason: 'bad_signature', message: error.message };
    return { ok: false, reason: 'malformed', message: 'the body is not a Stripe event' };
  }
  if (typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data)
    return { ok: false, reason: 'malformed', message: 'the body is not a Stripe event' };
  if (event.livemode !== delivery.live)
    return { ok: false, reason: 'bad_signature', message: `a ${event.livemode ? 'live' : 'test'} mode event` };
  return { ok: true, events: [stripeEventToProcessorEvent(event)] };
}

export const stripeWebhooks: ProcessorWebhooks = { verify: (delivery) => verifyStripeDelivery(delivery) };
