import { randomBase62 } from '../domain/ids';
import { recordTypeOf, type EventRecordType, type WebhookEventType } from '../webhooks/catalogue';
import { eventPropertiesSchemas, type EventProperties } from './payloads';

/** What a sample borrows from the store it is sent for. */
export interface SampleStore {
  baseCurrency: string;
}

type SampleBuilders = {
  [T in EventRecordType]: (store: SampleStore, fake: (prefix: string) => string) => EventProperties<T>;
};

const amount = 1999;
const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const threeDs = (status: string, fake: (prefix: string) => string) => ({
  threedsSessionId: fake('3ds'),
  status,
  type: 'customer',
  transStatus:
    status === 'authenticated' ? 'Y' : status === 'failed' ? 'N' : status === 'challenge_required' ? 'C' : null,
  eci: status === 'authenticated' ? '05' : null,
  paymentId: fake('pay'),
  ...(status === 'failed' ? { failureReason: 'authentication_failed' } : {}),
});
/** What both upsell events carry: the order, its charge, the funnel session and step that offered it. */
const upsell = (currency: string, fake: (prefix: string) => string) => ({
  orderId: fake('ord'),
  paymentId: fake('pay'),
  funnelSessionId: fake('fs'),
  stepId: fake('step'),
  amount,
  currency,
});

/**
 * One sample per event type, typed by (and checked at record time against) the shape real events
 * of the type have (src/events/payloads.ts), in the store's currency. Where a type has several
 * emitters, the sample takes the most common one (`order/paid` of a card payment,
 * `subscription/updated` of a switch).
 */
const builders: SampleBuilders = {
  s_order_paid: ({ baseCurrency }, fake) => ({
    orderId: fake('ord'),
    amount,
    currency: baseCurrency,
    paymentId: fake('pay'),
  }),
  s_order_refunded: ({ baseCurrency }, fake) => ({
    orderId: fake('ord'),
    paymentId: fake('pay'),
    refundId: fake('re'),
    amount,
    currency: baseCurrency,
    status: 'refunded',
  }),
  s_order_cancelled: ({ baseCurrency }, fake) => ({ orderId: fake('ord'), amount, currency: baseCurrency }),
  s_order_upsell_started: ({ baseCurrency }, fake) => upsell(baseCurrency, fake),
  s_order_upsell_failed: ({ baseCurrency }, fake) => ({ ...upsell(baseCurrency, fake), declineCode: 'card_declined' }),
  s_payment_succeeded: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    orderId: fake('ord'),
    amount,
    currency: baseCurrency,
    status: 'succeeded',
    processorId: fake('proc'),
    captured: true,
  }),
  s_payment_failed: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    orderId: fake('ord'),
    amount,
    currency: baseCurrency,
    status: 'failed',
    declineCode: 'card_declined',
    declineCategory: 'hard',
  }),
  s_payment_refunded: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    refundId: fake('re'),
    amount,
    currency: baseCurrency,
    paymentStatus: 'refunded',
  }),
  s_payment_refund_failed: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    refundId: fake('re'),
    amount,
    currency: baseCurrency,
    paymentStatus: 'succeeded',
    failureCode: 'refund_failed',
  }),
  s_payment_voided: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    orderId: fake('ord'),
    amount,
    currency: baseCurrency,
    status: 'canceled',
    processorId: fake('proc'),
    captured: false,
  }),
  s_payment_disputed: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    disputeId: fake('dp'),
    amount,
    currency: baseCurrency,
    reason: 'fraudulent',
    status: 'needs_response',
  }),
  s_payment_dispute_closed: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    disputeId: fake('dp'),
    amount,
    currency: baseCurrency,
    reason: 'fraudulent',
    status: 'won',
  }),
  s_payment_blocked: ({ baseCurrency }, fake) => ({
    paymentId: fake('pay'),
    orderId: fake('ord'),
    amount,
    currency: baseCurrency,
    status: 'failed',
    ruleId: fake('br'),
    declineCode: 'blocked_by_rule',
  }),
  s_payment_review_resolved: ({ baseCurrency }, fake) => {
    const paymentId = fake('pay');
    return {
      paymentId,
      orderId: fake('ord'),
      amount,
      currency: baseCurrency,
      status: 'succeeded',
      outcome: 'charged',
      processorId: fake('proc'),
      idempotencyKey: `${paymentId}:1`,
      note: 'settled by an operator: the processor charged',
    };
  },
  s_checkout_session_paid: (_store, fake) => ({
    checkoutSessionId: fake('ch'),
    orderId: fake('ord'),
    paymentId: fake('pay'),
  }),
  s_checkout_session_expired: ({ baseCurrency }, fake) => ({
    checkoutSessionId: fake('ch'),
    amount,
    currency: baseCurrency,
    reason: 'lapsed',
  }),
  s_subscription_created: ({ baseCurrency }, fake) => ({
    subscriptionId: fake('sub'),
    status: 'active',
    optionId: fake('price'),
    price: amount,
    currency: baseCurrency,
    membershipId: null,
  }),
  s_subscription_renewed: ({ baseCurrency }, fake) => ({
    subscriptionId: fake('sub'),
    status: 'active',
    transition: 'renewal_paid',
    periodStart: at(0),
    nextBillingAt: at(30),
    orderId: fake('ord'),
    amount,
    currency: baseCurrency,
    reason: 'renewal',
  }),
  s_subscription_payment_failed: (_store, fake) => ({
    subscriptionId: fake('sub'),
    status: 'past_due',
    declineCode: 'authentication_required',
    nextRetryAt: at(1),
    // A sample link: it is not signed, so it opens no portal session.
    payOnSessionLink: 'eyJzYW1wbGUiOnRydWV9.c2FtcGxl',
    payOnSessionLinkExpiresAt: at(14),
  }),
  s_subscription_updated: ({ baseCurrency }, fake) => ({
    subscriptionId: fake('sub'),
    status: 'active',
    change: 'switched',
    fromOptionId: fake('price'),
    toOptionId: fake('price'),
    credit: 500,
    amountCharged: amount - 500,
    orderId: fake('ord'),
    amount: amount - 500,
    currency: baseCurrency,
    reason: 'switch',
  }),
  s_subscription_paused: (_store, fake) => ({ subscriptionId: fake('sub'), status: 'paused', pausedUntil: at(30) }),
  s_subscription_resumed: (_store, fake) => ({ subscriptionId: fake('sub'), status: 'active', automatic: false }),
  s_subscription_cancelled: (_store, fake) => ({
    subscriptionId: fake('sub'),
    status: 'canceled',
    atPeriodEnd: false,
    reason: 'requested',
  }),
  s_subscription_expired: (_store, fake) => ({
    subscriptionId: fake('sub'),
    status: 'canceled',
    reason: 'dunning_exhausted',
    declineCode: 'insufficient_funds',
  }),
  s_threeds_session_created: (_store, fake) => threeDs('pending', fake),
  s_threeds_session_challenge_required: (_store, fake) => threeDs('challenge_required', fake),
  s_threeds_session_succeeded: (_store, fake) => threeDs('authenticated', fake),
  s_threeds_session_failed: (_store, fake) => threeDs('failed', fake),
  s_webhook_endpoint_disabled: (_store, fake) => ({
    endpointId: fake('wh'),
    url: 'https://example.com/webhooks',
    reason: 'failing',
    detail: 'every delivery failed for 3 days',
    lastEventId: fake('evt'),
  }),
};

/** Properties of a sample event of `webhookType` (`order/paid`), marked `sample: true`. */
export function sampleProperties(webhookType: WebhookEventType, store: SampleStore): Record<string, unknown> {
  const recordType = recordTypeOf(webhookType) as EventRecordType;
  const fake = (prefix: string) => `${prefix}_sample${randomBase62(14)}`;
  // Parsed, not just typed: the sample must pass the check real events pass.
  return eventPropertiesSchemas[recordType].parse({ ...builders[recordType](store, fake), sample: true }) as Record<
    string,
    unknown
  >;
}
