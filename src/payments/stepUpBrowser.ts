import type { AuthenticationAction } from '../processors/types';
import { paymentStateQuery } from '../../workflows/payments/messages';
import { stepUpReturnedUpdate } from '../../workflows/payments/messages';
import { paymentResult, type PaymentResultDeps, type ReturnedPayment } from './paymentResult';

/**
 * Where a shopper's browser goes on a step-up link (the caller has checked its signed token):
 * - `processor`: on to the processor's authentication page (the attempt is still waiting for them);
 * - `result`: the payment as it stands, and the caller's returnUrl to send them on to, if any.
 *   `settled: false` when they came back before the processor had decided: they may go back.
 */
export type StepUpLanding =
  | { kind: 'processor'; action: AuthenticationAction }
  | { kind: 'result'; settled: boolean; payment: ReturnedPayment | null; returnUrl: string | null };

const finalStatuses = new Set(['succeeded', 'authorized', 'failed', 'canceled', 'refunded', 'partially_refunded']);

/** A browser waits on these calls: a workflow that cannot answer in time is read from its row instead. */
const workflowCallDeadlineMs = 5_000;

async function paymentRow(deps: PaymentResultDeps, paymentId: string) {
  return deps.db.payment.findUnique({ where: { id: paymentId }, select: { status: true, returnUrl: true } });
}

async function waitingAction(deps: PaymentResultDeps, paymentId: string, attemptNumber: number) {
  try {
    const state = await deps.temporal.connection.withDeadline(Date.now() + workflowCallDeadlineMs, () =>
      deps.temporal.workflow.getHandle(paymentId).query(paymentStateQuery),
    );
    return state.stepUp?.attemptNumber === attemptNumber ? state.stepUp.action : null;
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
  const row = await paymentRow(deps, paymentId);
  if (row?.status === 'requires_action') {
    const action = await waitingAction(deps, paymentId, attemptNumber);
    if (action) return { kind: 'processor', action };
  }
  return {
    kind: 'result',
    settled: true,
    payment: await paymentResult(deps, paymentId),
    returnUrl: row?.returnUrl ?? null,
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
  const row = await paymentRow(deps, paymentId);
  const returnUrl = row?.returnUrl ?? null;
  let settled = true;
  if (row && !finalStatuses.has(row.status)) {
    try {
      const answer = await deps.temporal.connection.withDeadline(
        Date.now() + deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
        () =>
          deps.temporal.workflow
            .getHandle(paymentId)
            .executeUpdate(stepUpReturnedUpdate, { args: [{ attemptNumber, ...(returnData ? { returnData } : {}) }] }),
      );
      settled = answer.settled;
    } catch {
      // The workflow has finished (or did not answer in time): the payment's row tells where it stands.
    }
  }
  if (!settled) {
    const payment = await paymentResult({ ...deps, config: { PAYMENT_RESPONSE_TIMEOUT_MS: 0 } }, paymentId);
    return { kind: 'result', settled: false, payment, returnUrl };
  }
  return { kind: 'result', settled: true, payment: await paymentResult(deps, paymentId), returnUrl };
}
