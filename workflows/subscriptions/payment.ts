import { ChildWorkflowFailure, executeChild, proxyActivities } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../../activities';
import { paymentWait, recordStep } from '../shared/activityOptions';
import type { SubscriptionChargeInput, SubscriptionChargeResult } from '../../src/domain/billingState';
import { chargeResultOf } from '../../src/domain/subscriptionChargeResult';
import { childPaymentOptions } from '../payments/child';
import type { paymentWorkflow } from '../payments/payment';

const { prepareRenewalPayment } = proxyActivities<Activities>(recordStep);
const { awaitSubscriptionPayment } = proxyActivities<Activities>(paymentWait);

/**
 * A renewal (first charge, renewal, trial conversion, dunning retry) as a child payment workflow.
 * Its id is derived from the charge key (subscription, cycle, retry), so it is the same id in
 * every replay, retry and run; a decline is a result, never an exception.
 */
export async function chargeAsChildPayment(input: SubscriptionChargeInput): Promise<SubscriptionChargeResult> {
  const plan = await prepareRenewalPayment(input);
  if (plan.kind === 'declined') return plan.result;
  const { payment, cardBrand } = plan;
  try {
    const outcome = await executeChild<typeof paymentWorkflow>('paymentWorkflow', childPaymentOptions(payment));
    return chargeResultOf(outcome, cardBrand);
  } catch (error) {
    // Already started (by an earlier run, or the charge activity of older code): follow that one.
    // Ended without an answer (terminated): the activity falls back on the payment's row.
    if (error instanceof WorkflowExecutionAlreadyStartedError || error instanceof ChildWorkflowFailure) {
      return awaitSubscriptionPayment({ paymentId: payment.paymentId, cardBrand });
    }
    throw error;
  }
}
