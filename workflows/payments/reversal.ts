import { ActivityFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { attemptReversal, databaseStep } from '../shared/activityOptions';
import type { AttemptRecord, ChargeInput, ReverseAttemptResult } from '../../src/payments/workflowTypes';
import type { FailedAttempt } from './authorize';

const { reverseAttempt } = proxyActivities<Activities>(attemptReversal);
const { recordAttempt } = proxyLocalActivities<Activities>(databaseStep);

/** Reverses a failed attempt that may have charged, then records the attempt row with what happened. */
export async function settleFailedAttempt(
  input: ChargeInput,
  failure: FailedAttempt,
): Promise<{ record: AttemptRecord; unresolved: boolean }> {
  let record = failure.record;
  let unresolved = false;
  if (failure.mayHaveCharged) {
    const reversal = await reverseOrNull(input, record);
    if (!reversal || reversal.outcome === 'refused') {
      const why = reversal ? `the processor refused it (${reversal.code})` : 'it could not be confirmed';
      unresolved = true;
      record = { ...record, message: `${record.message}; reversal by idempotency key failed: ${why}. Needs review.` };
    } else if (reversal.outcome === 'reversed') {
      record = {
        ...record,
        processorReference: reversal.processorReference,
        message: `${record.message}; reversed by idempotency key (${reversal.amount} reversed)`,
      };
    } else {
      record = { ...record, message: `${record.message}; reversal by idempotency key confirmed nothing stands` };
    }
  }
  await recordAttempt({ paymentId: input.paymentId, attempt: record });
  return { record, unresolved };
}

async function reverseOrNull(input: ChargeInput, record: AttemptRecord): Promise<ReverseAttemptResult | null> {
  try {
    return await reverseAttempt({
      paymentId: input.paymentId,
      attemptNumber: record.attemptNumber,
      processorId: record.processorId,
      accountId: input.accountId,
      mode: input.mode,
      amount: input.amount,
      currency: input.currency,
    });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    return null;
  }
}
