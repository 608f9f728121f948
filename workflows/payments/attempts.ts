import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { databaseStep } from '../shared/activityOptions';
import { shouldCascade, type RoutingFlow } from '../../src/domain/routing';
import type { ThreeDsValues } from '../../src/processors/types';
import type { AttemptRecord, AuthorizeAttemptResult, ChargeInput, StepUpStart } from '../../src/payments/workflowTypes';
import { attemptOnce } from './authorize';
import { settleFailedAttempt } from './reversal';
import { awaitStepUp } from './stepUp';

const { recordAttempt } = proxyLocalActivities<Activities>(databaseStep);

export interface AttemptsResult {
  approved: AuthorizeAttemptResult | null;
  /** The last failed attempt when none was approved (its code becomes the payment's decline code). */
  lastFailure: AttemptRecord | null;
  /** An attempt that never answered and whose reversal was not confirmed: its processor may hold a charge. */
  unresolved: AttemptRecord | null;
}

/**
 * A payment that can wait for the shopper (customer-initiated) lets a processor answer with its own
 * authentication page: `awaitingShopper` answers the API `requires_action`, `resumed` takes it back
 * once the step-up has settled.
 */
export interface StepUpHooks {
  timeoutMinutes: number;
  awaitingShopper(start: StepUpStart, attemptNumber: number): Promise<void>;
  resumed(): void;
}

/**
 * One attempt per processor in route order until one approves, a decline that must not cascade
 * (hard decline, 3DS required) stops, or the order ends (planRoute already capped it at
 * 1 + maxFallbackRetries). Each attempt is its own PaymentAttempt row.
 *
 * A step-up (the processor's own authentication page) ends the attempts whatever its result: a
 * cardholder who failed or abandoned authentication is not sent to the next processor.
 *
 * An attempt whose answer never came may have charged. Saga-style, it is reversed by its
 * idempotency key before anything else happens; if the reversal is not confirmed the payment
 * stops there, because cascading could charge the card a second time.
 */
export async function runAttempts(
  input: ChargeInput,
  flow: RoutingFlow,
  order: string[],
  threeDs: ThreeDsValues | undefined,
  onAttempt: (attempt: AttemptRecord) => void,
  stepUp?: StepUpHooks,
): Promise<AttemptsResult> {
  let lastFailure: AttemptRecord | null = null;
  for (const [index, processorId] of order.entries()) {
    const attemptNumber = index + 1;
    const attempt = await attemptOnce(input, processorId, attemptNumber, threeDs, stepUp !== undefined);
    if (attempt.outcome === 'requires_action' && attempt.stepUp && stepUp && attempt.processorReference)
      return stepUpAttempt(
        input,
        { ...attempt, stepUp: attempt.stepUp, processorReference: attempt.processorReference },
        stepUp,
        onAttempt,
      );
    if (attempt.outcome === 'approved') {
      onAttempt(attempt);
      return { approved: attempt, lastFailure: null, unresolved: null };
    }
    if (attempt.failure) {
      const { record, unresolved } = await settleFailedAttempt(input, attempt.failure);
      onAttempt(record);
      if (unresolved) return { approved: null, lastFailure: record, unresolved: record };
      lastFailure = record;
    } else {
      onAttempt(attempt);
      lastFailure = attempt;
    }
    if (lastFailure.outcome === 'requires_3ds' || !lastFailure.category || !shouldCascade(lastFailure.category, flow))
      break;
  }
  return { approved: null, lastFailure, unresolved: null };
}

/** Waits for the shopper at the processor's page; the settled attempt ends the payment's attempts. */
async function stepUpAttempt(
  input: ChargeInput,
  attempt: AuthorizeAttemptResult & { stepUp: StepUpStart; processorReference: string },
  hooks: StepUpHooks,
  onAttempt: (attempt: AttemptRecord) => void,
): Promise<AttemptsResult> {
  await hooks.awaitingShopper(attempt.stepUp, attempt.attemptNumber);
  const ended = await awaitStepUp(input, attempt, hooks.timeoutMinutes, hooks.resumed);
  if (ended.kind === 'unresolved') {
    const record: AttemptRecord = {
      ...recordOf(attempt),
      outcome: 'error',
      errorCode: 'processor_outcome_unknown',
      category: 'technical',
      message: 'The authentication was abandoned and the processor did not confirm the cancel; needs review',
    };
    await recordAttempt({ paymentId: input.paymentId, attempt: record });
    onAttempt(record);
    return { approved: null, lastFailure: record, unresolved: record };
  }
  onAttempt(recordOf(ended.attempt));
  if (ended.attempt.outcome === 'approved') return { approved: ended.attempt, lastFailure: null, unresolved: null };
  return { approved: null, lastFailure: recordOf(ended.attempt), unresolved: null };
}

function recordOf(attempt: AttemptRecord): AttemptRecord {
  const { attemptNumber, processorId, outcome, errorCode, category, message, processorReference } = attempt;
  return { attemptNumber, processorId, outcome, errorCode, category, message, processorReference };
}
