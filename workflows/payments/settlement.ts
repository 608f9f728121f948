import { ActivityFailure, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { databaseStep, dispatch, processorCall } from '../shared/activityOptions';
import type { FollowUpOutcome, ProcessorFollowUp, SettlementInput } from '../../src/payments/followUpTypes';
import { awaitConfirmation, awaitConfirmationPatch, defaultConfirmationWaitMs, followUpMessages } from './confirmation';

const { beginSettlement, finishSettlement } = proxyActivities<Activities>(databaseStep);
// Idempotency key `<payment id>:capture` / `:void` on every retry: the acquirer acts at most once.
const { settleAtProcessor } = proxyActivities<Activities>(processorCall);
const { dispatchEvents } = proxyActivities<Activities>(dispatch);

/**
 * Capture or void of an authorized payment: claim it → call the processor → record (or give it
 * back). A `pending` answer keeps the claim and waits for the processor's confirmation (webhook
 * signal, or a lookup after a long wait).
 */
export async function paymentSettlementWorkflow(input: SettlementInput): Promise<FollowUpOutcome> {
  const messages = followUpMessages();
  const workflowId = workflowInfo().workflowId;
  const call = await beginSettlement({ ...input, workflowId });
  if ('kind' in call) return messages.ended(call);
  let result: ProcessorFollowUp;
  try {
    result = await settleAtProcessor({ ...input, call });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    result = { outcome: 'failed', code: 'processor_unavailable', message: 'The processor could not be reached' };
  }
  let outcome = await finishSettlement({ ...input, workflowId, call, result });
  messages.answer(outcome);
  // Histories from before the patch ended here with the payment still processing.
  if (outcome.kind === 'done' && outcome.pending && patched(awaitConfirmationPatch)) {
    const confirmed = await awaitConfirmation(
      messages.confirmation,
      { ...input, call, settlementOwner: workflowId },
      input.confirmationWaitMs ?? defaultConfirmationWaitMs,
    );
    if (confirmed) outcome = await finishSettlement({ ...input, workflowId, call, result: confirmed });
  }
  if (outcome.kind === 'done' && outcome.eventIds.length > 0) await dispatchEvents(outcome.eventIds);
  return messages.ended(outcome);
}
