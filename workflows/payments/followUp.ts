import { ActivityFailure, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { FollowUpLookupInput } from '../../activities/payments/confirmation';
import { dispatch } from '../shared/activityOptions';
import type { FollowUpCall, FollowUpOutcome, ProcessorFollowUp } from '../../src/payments/followUpTypes';
import { awaitConfirmation, awaitConfirmationPatch, defaultConfirmationWaitMs, followUpMessages } from './confirmation';

const { dispatchEvents } = proxyActivities<Activities>(dispatch);

/** The three activities of one kind of follow-up (capture/void, refund), and how to look it up. */
export interface FollowUpSteps {
  /** Claims the payment or reserves the amount: the processor call to make, or a refusal that ends it. */
  begin(): Promise<FollowUpCall | Extract<FollowUpOutcome, { kind: 'rejected' }>>;
  /** The call at the processor, under the same idempotency key on every retry: it acts at most once. */
  atProcessor(call: FollowUpCall): Promise<ProcessorFollowUp>;
  /** Records the processor's answer (or gives the claim back). */
  finish(call: FollowUpCall, result: ProcessorFollowUp): Promise<FollowUpOutcome>;
  lookup(call: FollowUpCall): FollowUpLookupInput;
  confirmationWaitMs?: number;
}

/**
 * A money follow-up: begin → call the processor → record (or give back). A `pending` answer keeps
 * the claim and waits for the processor's confirmation (webhook signal, or a lookup after a long
 * wait), then records that; the recorded events are dispatched last.
 */
export async function runFollowUp(steps: FollowUpSteps): Promise<FollowUpOutcome> {
  const messages = followUpMessages();
  const call = await steps.begin();
  if ('kind' in call) return messages.ended(call);
  let result: ProcessorFollowUp;
  try {
    result = await steps.atProcessor(call);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    result = { outcome: 'failed', code: 'processor_unavailable', message: 'The processor could not be reached' };
  }
  let outcome = await steps.finish(call, result);
  messages.answer(outcome);
  // Histories from before the patch ended here with the refund or payment still pending.
  if (outcome.kind === 'done' && outcome.pending && patched(awaitConfirmationPatch)) {
    const confirmed = await awaitConfirmation(
      messages.confirmation,
      steps.lookup(call),
      steps.confirmationWaitMs ?? defaultConfirmationWaitMs,
    );
    if (confirmed) outcome = await steps.finish(call, confirmed);
  }
  if (outcome.kind === 'done' && outcome.eventIds.length > 0) await dispatchEvents(outcome.eventIds);
  return messages.ended(outcome);
}
