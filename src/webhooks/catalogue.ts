/**
 * The event catalogue: every event record type (`s_order_paid`, the event log's style) with the
 * webhook type endpoints subscribe to (`order/paid`) and when it is emitted. docs/webhooks.md's
 * catalogue table mirrors this list.
 */
export const eventCatalogue = [
  {
    recordType: 's_order_paid',
    webhookType: 'order/paid',
    emittedWhen: 'an order is fully paid (properties orderId, amount, currency)',
  },
  {
    recordType: 's_order_refunded',
    webhookType: 'order/refunded',
    emittedWhen: 'an order is refunded in full or in part',
  },
  {
    recordType: 's_order_cancelled',
    webhookType: 'order/cancelled',
    emittedWhen: 'an order is cancelled before payment',
  },
  {
    recordType: 's_order_upsell_started',
    webhookType: 'order/upsell_started',
    emittedWhen: "a funnel offer is accepted: its order is created and the checkout's card is charged",
  },
  {
    recordType: 's_order_upsell_failed',
    webhookType: 'order/upsell_failed',
    emittedWhen: 'the charge of an accepted funnel offer did not pay (its order stays pending)',
  },
  {
    recordType: 's_payment_succeeded',
    webhookType: 'payment/succeeded',
    emittedWhen: 'a payment is authorised or captured',
  },
  {
    recordType: 's_payment_failed',
    webhookType: 'payment/failed',
    emittedWhen: 'a payment ends declined or in error after every processor tried',
  },
  { recordType: 's_payment_refunded', webhookType: 'payment/refunded', emittedWhen: 'a refund of a payment succeeds' },
  {
    recordType: 's_payment_refund_failed',
    webhookType: 'payment/refund_failed',
    emittedWhen: 'a refund the processor had confirmed fails later: its amount is refundable again',
  },
  { recordType: 's_payment_voided', webhookType: 'payment/voided', emittedWhen: 'an authorisation is voided' },
  {
    recordType: 's_payment_disputed',
    webhookType: 'payment/disputed',
    emittedWhen: 'a dispute (chargeback) is opened on a payment',
  },
  {
    recordType: 's_payment_dispute_closed',
    webhookType: 'payment/dispute_closed',
    emittedWhen: "the payment's processor reports a dispute won or lost",
  },
  {
    recordType: 's_payment_blocked',
    webhookType: 'payment/blocked',
    emittedWhen: 'a block rule stops a payment before any processor',
  },
  {
    recordType: 's_payment_review_resolved',
    webhookType: 'payment/review_resolved',
    emittedWhen: 'an operator settles a payment that needed review (processor outcome unknown)',
  },
  {
    recordType: 's_checkout_session_paid',
    webhookType: 'checkout_session/paid',
    emittedWhen: 'a checkout session is paid',
  },
  {
    recordType: 's_checkout_session_expired',
    webhookType: 'checkout_session/expired',
    emittedWhen: 'a checkout session expires unpaid',
  },
  {
    recordType: 's_subscription_created',
    webhookType: 'subscription/created',
    emittedWhen: 'a subscription is created',
  },
  {
    recordType: 's_subscription_renewed',
    webhookType: 'subscription/renewed',
    emittedWhen: 'a billing cycle is charged successfully',
  },
  {
    recordType: 's_subscription_payment_failed',
    webhookType: 'subscription/payment_failed',
    emittedWhen: 'a renewal charge fails (dunning starts or continues)',
  },
  {
    recordType: 's_subscription_updated',
    webhookType: 'subscription/updated',
    emittedWhen: 'plan, quantity or billing date of a subscription changes',
  },
  { recordType: 's_subscription_paused', webhookType: 'subscription/paused', emittedWhen: 'a subscription is paused' },
  {
    recordType: 's_subscription_resumed',
    webhookType: 'subscription/resumed',
    emittedWhen: 'a paused subscription resumes, or a cancel at period end is withdrawn',
  },
  {
    recordType: 's_subscription_cancelled',
    webhookType: 'subscription/cancelled',
    emittedWhen: 'a subscription is cancelled (now or at period end)',
  },
  {
    recordType: 's_subscription_expired',
    webhookType: 'subscription/expired',
    emittedWhen: 'a subscription ends after dunning is exhausted or its term ends',
  },
  {
    recordType: 's_threeds_session_created',
    webhookType: 'threeds_session/created',
    emittedWhen: 'a 3-D Secure session starts',
  },
  {
    recordType: 's_threeds_session_challenge_required',
    webhookType: 'threeds_session/challenge_required',
    emittedWhen: 'a 3-D Secure session needs a cardholder challenge',
  },
  {
    recordType: 's_threeds_session_succeeded',
    webhookType: 'threeds_session/succeeded',
    emittedWhen: 'a 3-D Secure session authenticates the cardholder',
  },
  {
    recordType: 's_threeds_session_failed',
    webhookType: 'threeds_session/failed',
    emittedWhen: 'a 3-D Secure session fails, is rejected or times out',
  },
  {
    recordType: 's_webhook_endpoint_disabled',
    webhookType: 'webhook_endpoint/disabled',
    emittedWhen: 'an endpoint is disabled after failing for 3 days straight or answering 410 Gone',
  },
] as const;

export type EventRecordType = (typeof eventCatalogue)[number]['recordType'];
export type WebhookEventType = (typeof eventCatalogue)[number]['webhookType'];

export const eventRecordTypes: readonly string[] = eventCatalogue.map((entry) => entry.recordType);
export const webhookEventTypes: readonly string[] = eventCatalogue.map((entry) => entry.webhookType);

const webhookTypeByRecord = new Map<string, string>(
  eventCatalogue.map((entry) => [entry.recordType, entry.webhookType]),
);
const recordTypeByWebhook = new Map<string, string>(
  eventCatalogue.map((entry) => [entry.webhookType, entry.recordType]),
);

export function isEventRecordType(value: string): value is EventRecordType {
  return webhookTypeByRecord.has(value);
}

export function isWebhookEventType(value: string): value is WebhookEventType {
  return recordTypeByWebhook.has(value);
}

/** `s_order_paid` → `order/paid`; undefined for a type outside the catalogue. */
export function webhookTypeOf(recordType: string): string | undefined {
  return webhookTypeByRecord.get(recordType);
}

/** `order/paid` → `s_order_paid`; undefined for a type outside the catalogue. */
export function recordTypeOf(webhookType: string): string | undefined {
  return recordTypeByWebhook.get(webhookType);
}
