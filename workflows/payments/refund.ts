import { ActivityFailure, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { databaseStep, dispatch, processorCall } from '../shared/activityOptions';
import type { FollowUpOutcome, ProcessorFollowUp, RefundInput } from '../../src/payments/followUpTypes';
import { awaitConfirmation, awaitConfirmationPatch, defaultConfirmationWaitMs, followUpMessages } from './confirmation';

const { reserveRefund, finishRefund } = proxyActivities<Activities>(databaseStep);
// Same idempotency key (the refund id) on every retry: the acquirer refunds at most once.
const { refundAtProcessor } = proxyActivities<Activities>(processorCall);
const { dispatchEvents } = proxyActivities<Activities>(dispatch);

/**
 * One refund (workflow id = refund id): reserve the amount → call the processor → record (or
 * release). A refund the processor answered `pending` waits for its confirmation: the webhook
 * route records it and signals, or after a long wait the workflow asks (docs/processors.md).
 */
export async function refundWorkflow(input: RefundInput): Promise<FollowUpOutcome> {
  const messages = followUpMessages();
  const call = await reserveRefund(input);
  if ('kind' in call) return messages.ended(call);
  let result: ProcessorFollowUp;
  try {
    result = await refundAtProcessor({ ...input, call });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    result = { outcome: 'failed', code: 'processor_unavailable', message: 'The processor could not be reached' };
  }
  let outcome = await finishRefund({ ...input, call, result });
  messages.answer(outcome);
  // Histories from before the patch ended here with the refund pending.
  if (outcome.kind === 'done' && outcome.pending && patched(awaitConfirmationPatch)) {
    const confirmed = await awaitConfirmation(
      messages.confirmation,
      { ...input, operation: 'refund', call, refundId: input.refundId },
      input.confirmationWaitMs ?? defaultConfirmationWaitMs,
    );
    if (confirmed) outcome = await finishRefund({ ...input, call, result: confirmed });
  }
  if (outcome.kind === 'done' && outcome.eventIds.length > 0) await dispatchEvents(outcome.eventIds);
  return messages.ended(outcome);
}
