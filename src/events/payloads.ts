import { z } from 'zod';
import type { EventRecordType } from '../webhooks/catalogue';

/**
 * The `properties` of each event type, as the engine records them (and webhook receivers get
 * them): one strict shape per emitter variant, so a key added at one emitter and not declared here
 * is caught. `recordEvent` checks every event against this (test runs fail on a mismatch, see
 * `takeEventShapeViolations`), and test-trigger samples are built to pass the same check.
 */
const id = z.string();
const amount = z.number().int();
const currency = z.string().length(3);
const isoDate = z.string();

/** Marks an event made by `POST /test/webhooks/trigger`; the only key a real event never has. */
const sampleMark = { sample: z.literal(true).optional() };

const shape = <T extends z.ZodRawShape>(fields: T) => z.object({ ...fields, ...sampleMark }).strict();

const paymentBase = { paymentId: id, orderId: id.nullable(), amount, currency, status: z.string() };
const upsellBase = { orderId: id, paymentId: id, funnelSessionId: id, stepId: id, amount, currency };
const subscriptionBase = { subscriptionId: id, status: z.string() };
/** The portal link for the dunning e-mail: pays the failed renewal on-session (docs/subscriptions.md). */
const payOnSessionFields = { payOnSessionLink: z.string().optional(), payOnSessionLinkExpiresAt: isoDate.optional() };
const threeDsFields = {
  threedsSessionId: id,
  status: z.string(),
  type: z.string(),
  transStatus: z.string().nullable(),
  eci: z.string().nullable(),
  paymentId: id.nullable(),
  failureReason: z.string().optional(),
};
const threeDsSession = shape(threeDsFields);

export const eventPropertiesSchemas = {
  s_order_paid: z.union([
    shape({ orderId: id, amount, currency, paymentId: id }),
    shape({ orderId: id, amount, currency, subscriptionId: id }),
    shape({ orderId: id, amount, currency, paidWithCredits: z.number().int(), membershipId: id }),
  ]),
  s_order_refunded: shape({
    orderId: id,
    paymentId: id,
    refundId: id,
    amount,
    currency,
    status: z.enum(['refunded', 'partially_refunded']),
  }),
  // No emitter yet (nothing cancels an order): the shape test-trigger samples take.
  s_order_cancelled: shape({ orderId: id, amount, currency }),
  s_order_upsell_started: shape({ ...upsellBase }),
  s_order_upsell_failed: shape({ ...upsellBase, declineCode: z.string().nullable() }),
  s_payment_succeeded: shape({ ...paymentBase, processorId: id.nullable(), captured: z.boolean() }),
  s_payment_failed: shape({
    ...paymentBase,
    declineCode: z.string().nullable(),
    declineCategory: z.string().nullable(),
  }),
  s_payment_refunded: shape({ paymentId: id, refundId: id, amount, currency, paymentStatus: z.string() }),
  s_payment_refund_failed: shape({
    paymentId: id,
    refundId: id,
    amount,
    currency,
    paymentStatus: z.string(),
    failureCode: z.string(),
  }),
  s_payment_voided: shape({ ...paymentBase, processorId: id.nullable(), captured: z.boolean() }),
  s_payment_disputed: shape({
    paymentId: id,
    disputeId: id,
    amount,
    currency,
    reason: z.string().nullable(),
    status: z.string(),
  }),
  s_payment_dispute_closed: shape({
    paymentId: id,
    disputeId: id,
    amount,
    currency,
    reason: z.string().nullable(),
    status: z.enum(['won', 'lost']),
  }),
  s_payment_blocked: shape({ ...paymentBase, ruleId: id, declineCode: z.string().nullable() }),
  s_payment_review_resolved: shape({
    ...paymentBase,
    outcome: z.enum(['charged', 'not_charged']),
    processorId: id,
    idempotencyKey: z.string(),
    note: z.string().nullable(),
  }),
  s_checkout_session_paid: shape({ checkoutSessionId: id, orderId: id, paymentId: id }),
  s_checkout_session_expired: shape({
    checkoutSessionId: id,
    amount,
    currency,
    reason: z.enum(['requested', 'lapsed']),
  }),
  s_subscription_created: shape({
    ...subscriptionBase,
    optionId: id,
    price: amount,
    currency,
    membershipId: id.nullable(),
  }),
  s_subscription_renewed: shape({
    ...subscriptionBase,
    transition: z.string(),
    periodStart: isoDate,
    nextBillingAt: isoDate,
    orderId: id,
    amount,
    currency,
    reason: z.string(),
    /** true when the customer paid a failed renewal from the portal (on_session_recovery). */
    onSession: z.boolean().optional(),
  }),
  s_subscription_payment_failed: z.union([
    shape({ ...subscriptionBase, ...payOnSessionFields, declineCode: z.string().nullable(), nextRetryAt: isoDate }),
    shape({
      ...subscriptionBase,
      ...payOnSessionFields,
      declineCode: z.string().nullable(),
      refused: z.boolean(),
      retry: z.number().int(),
      nextRetryAt: isoDate,
    }),
  ]),
  s_subscription_updated: z.discriminatedUnion('change', [
    shape({
      ...subscriptionBase,
      change: z.literal('switched'),
      fromOptionId: id,
      toOptionId: id,
      credit: amount,
      amountCharged: amount,
      orderId: id,
      amount,
      currency,
      reason: z.string(),
    }),
    shape({
      ...subscriptionBase,
      change: z.literal('switch_abandoned'),
      toOptionId: id,
      paymentId: id,
      declineCode: z.string().nullable(),
    }),
    shape({ ...subscriptionBase, change: z.literal('date_skipped'), skippedDate: isoDate }),
    shape({ ...subscriptionBase, change: z.literal('payment_method'), paymentMethodId: id }),
  ]),
  s_subscription_paused: shape({ ...subscriptionBase, pausedUntil: isoDate }),
  s_subscription_resumed: z.union([
    shape({ ...subscriptionBase, automatic: z.boolean() }),
    // The portal's resume: a cancel at period end withdrawn, so the next period is billed.
    shape({
      ...subscriptionBase,
      automatic: z.literal(false),
      cancelWithdrawn: z.literal(true),
      nextBillingAt: isoDate,
    }),
  ]),
  s_subscription_cancelled: z.union([
    shape({ ...subscriptionBase, atPeriodEnd: z.literal(true), cancelAt: isoDate }),
    shape({ ...subscriptionBase, atPeriodEnd: z.boolean(), reason: z.string() }),
  ]),
  s_subscription_expired: shape({ ...subscriptionBase, reason: z.string(), declineCode: z.string().nullable() }),
  s_threeds_session_created: threeDsSession,
  s_threeds_session_challenge_required: threeDsSession,
  s_threeds_session_succeeded: threeDsSession,
  s_threeds_session_failed: threeDsSession,
  s_webhook_endpoint_disabled: shape({
    endpointId: id,
    url: z.string(),
    reason: z.enum(['gone', 'failing']),
    detail: z.string(),
    lastEventId: id,
  }),
} satisfies Record<EventRecordType, z.ZodType>;

export type EventProperties<T extends EventRecordType> = z.infer<(typeof eventPropertiesSchemas)[T]>;

/** Why `properties` are not a shape of `eventType`, or undefined when they are. */
export function eventShapeProblem(eventType: EventRecordType, properties: unknown): string | undefined {
  const parsed = eventPropertiesSchemas[eventType].safeParse(properties);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((issue) => `${issue.path.join('.') || '(properties)'}: ${issue.message}`).join('; ');
}
