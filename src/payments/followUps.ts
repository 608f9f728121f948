import type { Client } from '@temporalio/client';
import { searchAttributesFor, startAndAwait } from '../../temporal/client';
import type { Config } from '../config';
import type { FollowUpOutcome, RefundInput, SettlementInput } from './followUpTypes';

export interface FollowUpDeps {
  temporal: Client;
  taskQueue: string;
  config: Pick<Config, 'PAYMENT_RESPONSE_TIMEOUT_MS'>;
}

export interface FollowUpTarget {
  workflowId: string;
  payment: { id: string; accountId: string; storeId: string; customerId: string | null };
}

/**
 * Runs a follow-up workflow and waits for it with the payment deadline; a closed one answers its
 * stored result. The same workflow id (derived from the Idempotency-Key) is joined, never started
 * twice, so a retry after an API crash follows the run its first request started.
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
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: searchAttributesFor({
        accountId: payment.accountId,
        storeId: payment.storeId,
        customerId: payment.customerId,
      }),
    },
    answer: { result: true },
    deadlineMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
    onDeadline: () => 'pending',
  });
}
