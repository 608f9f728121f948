import type { AuthenticationAction } from '../processors/types';
import { paymentStateQuery } from '../../workflows/payments/messages';
import { stepUpReturnedUpdate } from '../../workflows/payments/stepUp';
import { paymentResult, type PaymentResultDeps, type ReturnedPayment } from './paymentResult';
import type { PaymentStateView } from './workflowTypes';

/**
 * Where a shopper's browser goes on a step-up link (the caller has checked its signed token):
 * - `processor`: on to the processor's authentication page (the attempt is still waiting for them);
 * - `result`: the payment as it stands, and the caller's returnUrl to send them on to, if any.
 *   `settled: false` when they came back before the processor had decided: they may go back.
 */
export type StepUpLanding =
  | { kind: 'processor'; action: AuthenticationAction }
  | { kind: 'result'; settled: boolean; payment: ReturnedPayment | null; returnUrl: string | null };

async function stateOf(deps: PaymentResultDeps, paymentId: string): Promise<PaymentStateView | null> {
  try {
    return await deps.temporal.workflow.getHandle(paymentId).query(paymentStateQuery);
  } catch {
    return null;
  }
}

/** The start link (the payment's redirectUrl): the processor's page while the attempt waits, else the result. */
export async function stepUpStart(
  deps: PaymentResultDeps,
  paymentId: string,
  attemptNumber: number,
): Promise<StepUpLanding> {
  const state = await stateOf(deps, paymentId);
  if (state?.stepUp?.attemptNumber === attemptNumber) return { kind: 'processor', action: state.stepUp.action };
  return {
    kind: 'result',
    settled: true,
    payment: await paymentResult(deps, paymentId),
    returnUrl: state?.returnUrl ?? null,
  };
}

/**
 * The return link: tells the waiting workflow the shopper is back (it asks the processor and
 * settles the attempt once, however many times the browser comes back), then answers the payment's
 * outcome. A return after the payment ended (timed out, settled by webhook) only reads the result.
 */
export async function stepUpReturn(
  deps: PaymentResultDeps,
  paymentId: string,
  attemptNumber: number,
  returnData: Record<string, string> | undefined,
): Promise<StepUpLanding> {
  let settled = true;
  try {
    const answer = await deps.temporal.workflow
      .getHandle(paymentId)
      .executeUpdate(stepUpReturnedUpdate, { args: [{ attemptNumber, ...(returnData ? { returnData } : {}) }] });
    settled = answer.settled;
  } catch {
    // The workflow has finished: the payment's row has the final state.
  }
  const state = await stateOf(deps, paymentId);
  const returnUrl = state?.returnUrl ?? null;
  if (!settled) {
    const payment = await paymentResult({ ...deps, config: { PAYMENT_RESPONSE_TIMEOUT_MS: 0 } }, paymentId);
    return { kind: 'result', settled: false, payment, returnUrl };
  }
  return { kind: 'result', settled: true, payment: await paymentResult(deps, paymentId), returnUrl };
}
