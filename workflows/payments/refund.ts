import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { databaseStep, processorCall } from '../shared/activityOptions';
import type { FollowUpOutcome, RefundInput } from '../../src/payments/followUpTypes';
import { runFollowUp } from './followUp';

const { reserveRefund, finishRefund } = proxyActivities<Activities>(databaseStep);
// Same idempotency key (the refund id) on every retry: the acquirer refunds at most once.
const { refundAtProcessor } = proxyActivities<Activities>(processorCall);

/**
 * One refund (workflow id = refund id): reserve the amount → call the processor → record (or
 * release). A refund the processor answered `pending` waits for its confirmation: the webhook
 * route records it and signals, or after a long wait the workflow asks (docs/processors.md).
 */
export async function refundWorkflow(input: RefundInput): Promise<FollowUpOutcome> {
  return runFollowUp({
    begin: () => reserveRefund(input),
    atProcessor: (call) => refundAtProcessor({ ...input, call }),
    finish: (call, result) => finishRefund({ ...input, call, result }),
    lookup: (call) => ({ ...input, operation: 'refund', call, refundId: input.refundId }),
    confirmationWaitMs: input.confirmationWaitMs,
  });
}
