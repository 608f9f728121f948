import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { SubscriptionChargeInput, SubscriptionChargeResult } from '../src/domain/billingState';
import { declineCategoryOf } from '../src/processors/declineCodes';
import { businessId, runPayment } from '../src/payments/startPayment';
import type { PaymentOutcome } from '../src/payments/workflowTypes';
import type { ActivityDeps } from './deps';

/** Answers a renewal may end on; anything else is still moving. */
const terminalStatuses = new Set(['succeeded', 'authorized', 'failed', 'canceled', 'refunded', 'partially_refunded']);
const heartbeatEveryMs = 5_000;

/**
 * Subscription charges go through the payment workflow, so a renewal is an ordinary payment:
 * routing, cascades, 3DS, attempts, events, and a `pay_…` run in the Temporal UI. The payment id is
 * derived from the charge key (subscription, cycle, attempt), so a retried activity finds the
 * same payment workflow instead of charging twice.
 */
export function createSubscriptionChargeActivities(deps: ActivityDeps) {
  function temporal(): Client {
    if (!deps.temporal) throw new Error('subscription charges need a Temporal client in the activity deps');
    return deps.temporal;
  }

  return {
    async chargeSubscription(input: SubscriptionChargeInput): Promise<SubscriptionChargeResult> {
      const [store, instrument] = await Promise.all([
        deps.db.store.findFirst({ where: { id: input.storeId, accountId: input.accountId, mode: input.mode } }),
        deps.db.paymentInstrument.findFirst({ where: { id: input.paymentMethodId, accountId: input.accountId, mode: input.mode, customerId: input.customerId } }),
      ]);
      const cardBrand = instrument?.brand ?? null;
      if (!instrument) return declined(null, 'payment_method_missing', true, cardBrand);
      // Merchant configuration, not the card: soft, so dunning retries once the merchant fixes it.
      if (!store?.defaultPaymentFlowId) return declined(null, 'no_payment_flow', false, cardBrand);

      const paymentId = businessId('payment', `${input.accountId}:${input.mode}`, input.chargeKey);
      const answer = await runPayment(
        { db: deps.db, temporal: temporal(), taskQueue: deps.config.TEMPORAL_TASK_QUEUE, responseTimeoutMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS },
        {
          paymentId,
          accountId: input.accountId,
          mode: input.mode,
          storeId: input.storeId,
          customerId: input.customerId,
          paymentInstrumentId: instrument.id,
          amount: input.amount,
          currency: input.currency,
          intent: 'purchase',
          initiatedBy: input.initiatedBy,
          source: null,
          paymentFlowId: store.defaultPaymentFlowId,
        },
      );
      // A customer-present switch answers a challenge at once (the subscription workflow follows
      // the payment up); anything else waits for the payment's end.
      if (input.initiatedBy === 'customer' && answer.kind === 'payment' && answer.status === 'requires_action') return toChargeResult(answer, cardBrand);
      return toChargeResult(await finalOutcome(answer), cardBrand);
    },

    /** Waits for a payment that answered `requires_action` (a switch's challenge) to end. */
    async awaitSubscriptionPayment(input: { paymentId: string; cardBrand: string | null }): Promise<SubscriptionChargeResult> {
      const outcome = await waitForPaymentEnd(input.paymentId);
      return toChargeResult(outcome, input.cardBrand);
    },
  };

  async function finalOutcome(answer: PaymentOutcome): Promise<PaymentOutcome> {
    if (answer.kind !== 'payment' || terminalStatuses.has(answer.status)) return answer;
    return waitForPaymentEnd(answer.paymentId);
  }

  async function waitForPaymentEnd(paymentId: string): Promise<PaymentOutcome> {
    const result = temporal().workflow.getHandle(paymentId).result() as Promise<PaymentOutcome>;
    const context = Context.current();
    for (;;) {
      const done = await Promise.race([result, context.sleep(heartbeatEveryMs).then(() => null)]);
      if (done) return done;
      context.heartbeat();
    }
  }
}

function declined(paymentId: string | null, declineCode: string, hardDecline: boolean, cardBrand: string | null): SubscriptionChargeResult {
  return { status: 'declined', paymentId, hardDecline, declineCode, redirectUrl: null, cardBrand };
}

function toChargeResult(outcome: PaymentOutcome, cardBrand: string | null): SubscriptionChargeResult {
  if (outcome.kind === 'rejected') return declined(null, outcome.code, true, cardBrand);
  if (outcome.status === 'succeeded') return { status: 'paid', paymentId: outcome.paymentId, hardDecline: false, declineCode: null, redirectUrl: null, cardBrand };
  if (outcome.status === 'requires_action') {
    return { status: 'requires_action', paymentId: outcome.paymentId, hardDecline: false, declineCode: null, redirectUrl: outcome.redirectUrl, cardBrand };
  }
  const code = outcome.declineCode ?? 'declined';
  return declined(outcome.paymentId, code, declineCategoryOf(code) === 'hard_decline', cardBrand);
}
