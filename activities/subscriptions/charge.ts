import type { Client } from '@temporalio/client';
import type {
  RenewalPaymentPlan,
  SubscriptionChargeInput,
  SubscriptionChargeResult,
} from '../../src/domain/billingState';
import { chargeResultOf } from '../../src/domain/subscriptionChargeResult';
import { runPayment } from '../../src/payments/startPayment';
import type { PaymentOutcome } from '../../src/payments/workflowTypes';
import { renewalPaymentPlan } from '../../src/subscriptions/chargeLinks';
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

  return {
    /** The payment input for a charge, or the decline that stops it before any payment exists. */
    async prepareRenewalPayment(input: SubscriptionChargeInput): Promise<RenewalPaymentPlan> {
      return renewalPaymentPlan(deps.db, input);
    },

    /** A charge started from here (a portal switch, or a renewal of a run from before renewals were children). */
    async chargeSubscription(input: SubscriptionChargeInput): Promise<SubscriptionChargeResult> {
      const plan = await renewalPaymentPlan(deps.db, input);
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
