import { ActivityFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { FollowUpOutcome, ProcessorFollowUp, SettlementInput } from '../../src/payments/followUpTypes';

const { beginSettlement, finishSettlement } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
});
// Idempotency key `<payment id>:capture` / `:void` on every retry: the acquirer acts at most once.
const { settleAtProcessor } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    maximumAttempts: 4,
    initialInterval: '300 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '3 seconds',
  },
});
const { dispatchEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});

/** Capture or void of an authorized payment: claim it → call the processor → record (or give it back). */
export async function paymentSettlementWorkflow(input: SettlementInput): Promise<FollowUpOutcome> {
  const workflowId = workflowInfo().workflowId;
  const call = await beginSettlement({ ...input, workflowId });
  if ('kind' in call) return call;
  let result: ProcessorFollowUp;
  try {
    result = await settleAtProcessor({ ...input, call });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    result = { outcome: 'failed', code: 'processor_unavailable', message: 'The processor could not be reached' };
  }
  const outcome = await finishSettlement({ ...input, workflowId, call, result });
  if (outcome.kind === 'done' && outcome.eventIds.length > 0) await dispatchEvents(outcome.eventIds);
  return outcome;
}
