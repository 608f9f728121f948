import { allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { followUpLookup } from '../shared/activityOptions';
import type { FollowUpLookupInput } from '../../activities/payments/confirmation';
import type { FollowUpOutcome, ProcessorFollowUp } from '../../src/payments/followUpTypes';
import { followUpOutcomeUpdate, processorConfirmationSignal } from './messages';

const { lookUpFollowUp } = proxyActivities<Activities>(followUpLookup);

/** Patch of the capture/void and refund workflows: a `pending` answer is waited for, not left. */
export const awaitConfirmationPatch = 'follow-up-awaits-processor-confirmation';

/** How long a follow-up waits for the processor's webhook before it asks the processor itself. */
export const defaultConfirmationWaitMs = 24 * 60 * 60 * 1000;
/** Lookups before the workflow gives up waiting (the row stays pending; a late webhook still settles it). */
export const confirmationLookups = 7;

/**
 * The messages of a follow-up workflow: `followUpOutcome` answers the API with the first outcome
 * (the processor's answer, `pending` included); `processorConfirmation` carries the outcome the
 * webhook route recorded. Set up before the first await, so neither is missed.
 */
export function followUpMessages() {
  let answer: FollowUpOutcome | undefined;
  let confirmation: ProcessorFollowUp | undefined;
  setHandler(followUpOutcomeUpdate, async () => {
    await condition(() => answer !== undefined);
    return answer!;
  });
  setHandler(processorConfirmationSignal, (received) => {
    confirmation ??= received;
  });
  return {
    answer(outcome: FollowUpOutcome) {
      answer ??= outcome;
    },
    confirmation: () => confirmation,
    /** The last thing before returning: an update still being answered finishes first. */
    async ended(outcome: FollowUpOutcome): Promise<FollowUpOutcome> {
      answer ??= outcome;
      await condition(allHandlersFinished);
      return outcome;
    },
  };
}

/**
 * Waits for the processor's confirmation (signal), at most `waitMs` at a time; after each wait
 * asks (`lookUpFollowUp`: the engine's rows, then the processor). Undefined when it is still
 * pending after every lookup.
 */
export async function awaitConfirmation(
  received: () => ProcessorFollowUp | undefined,
  lookup: FollowUpLookupInput,
  waitMs: number,
): Promise<ProcessorFollowUp | undefined> {
  for (let round = 0; round < confirmationLookups; round++) {
    if (await condition(() => received() !== undefined, waitMs)) return received();
    const asked = await lookUpFollowUp(lookup);
    if (asked.outcome !== 'pending') return asked;
  }
  return undefined;
}
