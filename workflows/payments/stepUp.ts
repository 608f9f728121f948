import {
  ActivityFailure,
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { stepUpAbandonment, stepUpCheck } from '../shared/activityOptions';
import { stepUpNotifiedSignal, stepUpReturnedUpdate } from './messages';
import type {
  AuthorizeAttemptResult,
  ChargeInput,
  StepUpCheck,
  StepUpCheckInput,
} from '../../src/payments/workflowTypes';

// Reading the result is cheap and harmless: retried briefly, then the wait goes on (the next
// return, webhook or the timeout asks again).
const { checkStepUp } = proxyActivities<Activities>(stepUpCheck);
const { abandonStepUp } = proxyActivities<Activities>(stepUpAbandonment);

export const defaultAuthenticationTimeoutMinutes = 15;

/** How a step-up ended: settled (approved or declined), or unresolved (the processor could not be made to cancel). */
export type StepUpOutcome = { kind: 'settled'; attempt: AuthorizeAttemptResult } | { kind: 'unresolved' };

/**
 * The shopper is at the processor's authentication page for `attempt`: waits, durably, until the
 * browser comes back, the processor's webhook arrives, or `timeoutMinutes` of workflow time pass,
 * whichever is first. Each return or notice asks the processor; an undecided answer keeps waiting.
 * On timeout the authorization is canceled at the processor (`authentication_timeout`).
 * `onSettled` runs in the same workflow task as the result, before any return is answered.
 */
export async function awaitStepUp(
  input: ChargeInput,
  attempt: { attemptNumber: number; processorId: string; processorReference: string },
  timeoutMinutes: number,
  onSettled: () => void,
): Promise<StepUpOutcome> {
  const checkInput: StepUpCheckInput = {
    paymentId: input.paymentId,
    attemptNumber: attempt.attemptNumber,
    processorId: attempt.processorId,
    accountId: input.accountId,
    mode: input.mode,
    amount: input.amount,
    currency: input.currency,
    processorReference: attempt.processorReference,
  };
  let returns = 0;
  let notices = 0;
  let checked = 0;
  let noticed = 0;
  let returnData: Record<string, string> | undefined;
  let outcome: StepUpOutcome | undefined;
  setHandler(stepUpReturnedUpdate, async (arrival) => {
    if (arrival.attemptNumber === attempt.attemptNumber) {
      returns += 1;
      if (arrival.returnData) returnData = arrival.returnData;
    }
    const mine = returns;
    await condition(() => outcome !== undefined || checked >= mine);
    return { settled: outcome !== undefined };
  });
  setHandler(stepUpNotifiedSignal, (notice) => {
    if (notice.attemptNumber === attempt.attemptNumber) notices += 1;
  });

  let timedOut = false;
  const timerScope = new CancellationScope();
  void timerScope
    .run(() => sleep(timeoutMinutes * 60_000))
    .then(() => {
      timedOut = true;
    })
    .catch((error: unknown) => {
      if (!isCancellation(error)) throw error;
    });

  const settle = (check: StepUpCheck | null): boolean => {
    if (check === null) outcome = { kind: 'unresolved' };
    else if (check.settled) outcome = { kind: 'settled', attempt: check.attempt };
    else return false;
    onSettled();
    return true;
  };
  for (;;) {
    await condition(() => returns > checked || notices > noticed || timedOut);
    if (returns === checked && notices === noticed) {
      settle(await orNull(abandonStepUp({ ...checkInput, ...(returnData ? { returnData } : {}) })));
      break;
    }
    const answering = returns;
    noticed = notices;
    const check = await orNull(checkStepUp({ ...checkInput, ...(returnData ? { returnData } : {}) }));
    checked = answering;
    if (check && settle(check)) break;
  }
  timerScope.cancel();
  return outcome!;
}

async function orNull(call: Promise<StepUpCheck>): Promise<StepUpCheck | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ActivityFailure) return null;
    throw error;
  }
}
