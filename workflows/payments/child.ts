import {
  ChildWorkflowCancellationType,
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  workflowInfo,
  type ChildWorkflowOptions,
} from '@temporalio/workflow';
import { paymentWorkflowTaskTimeout, type PaymentWorkflowInput } from '../../src/payments/workflowTypes';
import { searchAttributes, searchAttributesFor } from '../../temporal/searchAttributes';

/**
 * How a parent (a subscription's renewal, a funnel's upsell) starts a payment as its child; the
 * payment's id is derived by the parent from its own business key, so every replay names the same one.
 */
export function childPaymentOptions(payment: PaymentWorkflowInput): ChildWorkflowOptions & {
  args: [PaymentWorkflowInput];
} {
  return {
    workflowId: payment.paymentId,
    args: [payment],
    // Money movement outlives its parent: never cancelled or terminated with it.
    parentClosePolicy: ParentClosePolicy.ABANDON,
    cancellationType: ChildWorkflowCancellationType.ABANDON,
    // A payment id that has ever run is never started again, so nothing can charge it twice.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    // A worker killed during the payment's first task (its processor call) is noticed in 4 s.
    workflowTaskTimeout: paymentWorkflowTaskTimeout,
    // Only where the parent has them: a server without the engine's search attributes refuses unknown ones.
    typedSearchAttributes:
      workflowInfo().typedSearchAttributes.get(searchAttributes.AccountId) === undefined
        ? []
        : searchAttributesFor({
            accountId: payment.accountId,
            storeId: payment.storeId,
            customerId: payment.customerId,
            paymentStatus: 'processing',
          }),
  };
}
