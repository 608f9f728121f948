import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { databaseStep, processorCall } from '../shared/activityOptions';
import type { FollowUpOutcome, SettlementInput } from '../../src/payments/followUpTypes';
import { runFollowUp } from './followUp';

const { beginSettlement, finishSettlement } = proxyActivities<Activities>(databaseStep);
// Idempotency key `<payment id>:capture` / `:void` on every retry: the acquirer acts at most once.
const { settleAtProcessor } = proxyActivities<Activities>(processorCall);

/**
 * Capture or void of an authorized payment: claim it → call the processor → record (or give it
 * back). A `pending` answer keeps the claim and waits for the processor's confirmation (webhook
 * signal, or a lookup after a long wait).
 */
export async function paymentSettlementWorkflow(input: SettlementInput): Promise<FollowUpOutcome> {
  const workflowId = workflowInfo().workflowId;
  return runFollowUp({
    begin: () => beginSettlement({ ...input, workflowId }),
    atProcessor: (call) => settleAtProcessor({ ...input, call }),
    finish: (call, result) => finishSettlement({ ...input, workflowId, call, result }),
    lookup: (call) => ({ ...input, call, settlementOwner: workflowId }),
    confirmationWaitMs: input.confirmationWaitMs,
  });
}
