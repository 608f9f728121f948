import type { Client } from '@temporalio/client';
import type {
  RenewalPaymentPlan,
  SubscriptionChargeInput,
  SubscriptionChargeResult,
} from '../../src/domain/billingState';
import { chargeResultOf, declinedCharge } from '../../src/domain/subscriptionChargeResult';
import { preparePaymentRequest } from '../../src/payments/paymentRequest';
import { businessId, runPayment } from '../../src/payments/startPayment';
import type { PaymentOutcome, PaymentWorkflowInput } from '../../src/payments/workflowTypes';
import { subscriptionOrderId } from '../../src/subscriptions/chargeLinks';
import type { ActivityDeps } from '../deps';
import { paymentEndWaiter, terminalPaymentStatuses } from '../payments/awaitPayment';

/**
 * Subscription charges go through the payment workflow, so a charge is an ordinary payment:
 * routing, cascades, 3DS, attempts, events, and a `pay_…` run in the Temporal UI. The payment id is
 * derived from the charge key (subscription, cycle, attempt), so whoever starts it again (a retried
 * activity, a replayed workflow) finds the same payment instead of charging twice. Renewals run it
 * as a child of the subscription workflow (`prepareRenewalPayment` gives its input); a portal
 * switch starts it here (`chargeSubscription`) because it must answer a 3DS challenge early.
 */
export function createSubscriptionChargeActivities(deps: ActivityDeps) {
  const waitForPaymentEnd = paymentEndWaiter(deps);
  function temporal(): Client {
    if (!deps.temporal) throw new Error('subscription charges need a Temporal client in the activity deps');
    return deps.temporal;
  }

  /** The payment input for a charge, or the decline that stops it before any payment exists. */
  async function paymentFor(input: SubscriptionChargeInput): Promise<RenewalPaymentPlan> {
    const [store, instrument] = await Promise.all([
      deps.db.store.findFirst({ where: { id: input.storeId, accountId: input.accountId, mode: input.mode } }),
      deps.db.paymentInstrument.findFirst({
        where: {
          id: input.paymentMethodId,
          accountId: input.accountId,
          mode: input.mode,
          customerId: input.customerId,
        },
      }),
    ]);
    const cardBrand = instrument?.brand ?? null;
    // A charge names no flow: its store's default pays it (paymentRequest.ts).
    const prepared = preparePaymentRequest({
      amount: input.amount,
      paymentInstrumentId: instrument?.id,
      store: { defaultPaymentFlowId: store?.defaultPaymentFlowId ?? null },
    });
    if (prepared.kind === 'rejected') return { kind: 'declined', result: declinedFor(prepared.missing, cardBrand) };
    const payment: PaymentWorkflowInput = {
      paymentId: businessId('payment', `${input.accountId}:${input.mode}`, input.chargeKey),
      accountId: input.accountId,
      mode: input.mode,
      storeId: input.storeId,
      customerId: input.customerId,
      ...prepared.means,
      amount: input.amount,
      currency: input.currency,
      intent: 'purchase',
      initiatedBy: input.initiatedBy,
      source: null,
      orderId: subscriptionOrderId(input.accountId, input.mode, input.chargeKey),
      subscriptionId: input.subscriptionId,
    };
    return { kind: 'start', payment, cardBrand };
  }

  return {
    prepareRenewalPayment: paymentFor,

    /** A charge started from here (a portal switch, or a renewal of a run from before renewals were children). */
    async chargeSubscription(input: SubscriptionChargeInput): Promise<SubscriptionChargeResult> {
      const plan = await paymentFor(input);
      if (plan.kind === 'declined') return plan.result;
      const answer = await runPayment(
        {
          db: deps.db,
          temporal: temporal(),
          taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
          responseTimeoutMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
        },
        plan.payment,
      );
      // A customer-present switch answers a challenge at once (the subscription workflow follows
      // the payment up); anything else waits for the payment's end.
      if (input.initiatedBy === 'customer' && answer.kind === 'payment' && answer.status === 'requires_action')
        return chargeResultOf(answer, plan.cardBrand);
      return chargeResultOf(await finalOutcome(answer), plan.cardBrand);
    },

    /** Waits for a payment (a switch's challenge, or a child the workflow cannot await) to end. */
    async awaitSubscriptionPayment(input: {
      paymentId: string;
      cardBrand: string | null;
    }): Promise<SubscriptionChargeResult> {
      const outcome = await waitForPaymentEnd(input.paymentId);
      return chargeResultOf(outcome, input.cardBrand);
    },
  };

  async function finalOutcome(answer: PaymentOutcome): Promise<PaymentOutcome> {
    if (answer.kind !== 'payment' || terminalPaymentStatuses.has(answer.status)) return answer;
    return waitForPaymentEnd(answer.paymentId);
  }
}

/**
 * A charge that cannot start: a card that is gone is a hard decline; a store without a default
 * flow is merchant configuration, not the card, so soft (dunning retries once the merchant fixes it).
 */
function declinedFor(missing: 'card' | 'flow', cardBrand: string | null): SubscriptionChargeResult {
  return missing === 'card'
    ? declinedCharge(null, 'payment_method_missing', true, cardBrand)
    : declinedCharge(null, 'no_payment_flow', false, cardBrand);
}
