import type { Client } from '@temporalio/client';
import { searchAttributesFor, startAndAwait } from '../../temporal/client';
import { followUpOutcomeUpdate } from '../../workflows/payments/messages';
import type { Config } from '../config';
import type { FollowUpOutcome, RefundInput, SettlementInput } from './followUpTypes';

export interface FollowUpDeps {
  temporal: Client;
  taskQueue: string;
  config: Pick<Config, 'PAYMENT_RESPONSE_TIMEOUT_MS' | 'FOLLOW_UP_CONFIRMATION_WAIT_MS'>;
}

export interface FollowUpTarget {
  workflowId: string;
  payment: { id: string; accountId: string; storeId: string; customerId: string | null };
}

/**
 * Runs a follow-up workflow and waits for its first outcome (`followUpOutcome`, sent with
 * update-with-start) with the payment deadline: the processor's answer, `pending` included, so a
 * caller never waits for a confirmation that may come days later. A closed run answers its stored
 * result. The same workflow id (derived from the Idempotency-Key) is joined, never started twice,
 * so a retry after an API crash follows the run its first request started.
 */
export async function runFollowUp(
  deps: FollowUpDeps,
  type: 'refundWorkflow' | 'paymentSettlementWorkflow',
  target: FollowUpTarget,
  input: RefundInput | SettlementInput,
): Promise<FollowUpOutcome | 'pending'> {
  const { workflowId, payment } = target;
  return startAndAwait<FollowUpOutcome, 'pending'>(deps.temporal, {
    start: {
      type,
      workflowId,
      taskQueue: deps.taskQueue,
      args: [{ ...input, confirmationWaitMs: deps.config.FOLLOW_UP_CONFIRMATION_WAIT_MS }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: searchAttributesFor({
        accountId: payment.accountId,
        storeId: payment.storeId,
        customerId: payment.customerId,
      }),
    },
    answer: { update: followUpOutcomeUpdate, args: [] },
    deadlineMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
    onDeadline: () => 'pending',
    whenClosed: () => deps.temporal.workflow.getHandle(workflowId).result() as Promise<FollowUpOutcome>,
  });
}
