import {
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  WorkflowIdReusePolicy,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../../activities';
import type { SubscriptionChargeInput, SubscriptionChargeResult } from '../../src/domain/billingState';
import { chargeResultOf } from '../../src/domain/subscriptionChargeResult';
import type { PaymentWorkflowInput } from '../../src/payments/workflowTypes';
import { searchAttributes, searchAttributesFor } from '../../temporal/searchAttributes';
import type { paymentWorkflow } from '../payments/workflow';

const { prepareRenewalPayment } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '1 second' },
});
const { awaitSubscriptionPayment } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '2 seconds' },
});

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
    const outcome = await executeChild<typeof paymentWorkflow>('paymentWorkflow', {
      workflowId: payment.paymentId,
      args: [payment],
      // Money movement outlives the subscription run: never cancelled or terminated with it.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      // A payment id that has ever run is never started again, so nothing can charge it twice.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: searchAttributesOf(payment),
    });
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

/** The payment's search attributes, where the subscription has them (a server without them refuses unknown ones). */
function searchAttributesOf(payment: PaymentWorkflowInput) {
  if (workflowInfo().typedSearchAttributes.get(searchAttributes.AccountId) === undefined) return [];
  return searchAttributesFor({
    accountId: payment.accountId,
    storeId: payment.storeId,
    customerId: payment.customerId,
    paymentStatus: 'processing',
  });
}
