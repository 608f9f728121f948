import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities, TimeoutFailure } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { shouldCascade, type RoutingFlow } from '../../src/domain/routing';
import type { ThreeDsValues } from '../../src/processors/types';
import type { AttemptRecord, AuthorizeAttemptResult, PaymentWorkflowInput } from '../../src/payments/workflowTypes';

// A processor call: technical failures (ProcessorTechnicalError, timeouts) are retried a few
// times with a short backoff under the SAME idempotency key (payment id + attempt number), so a
// retry after an ambiguous timeout gets the acquirer's stored answer instead of a second charge.
const { authorizeAttempt } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 4, initialInterval: '300 milliseconds', backoffCoefficient: 2, maximumInterval: '3 seconds' },
});
const { recordAttempt } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
});

export interface AttemptsResult {
  approved: AuthorizeAttemptResult | null;
  /** The last failed attempt when none was approved (its code becomes the payment's decline code). */
  lastFailure: AttemptRecord | null;
}

/**
 * One attempt per processor in route order until one approves, a decline that must not cascade
 * (hard decline, 3DS required) stops, or the order ends (planRoute already capped it at
 * 1 + maxFallbackRetries). Each attempt is its own PaymentAttempt row.
 */
export async function runAttempts(
  input: PaymentWorkflowInput,
  flow: RoutingFlow,
  order: string[],
  threeDs: ThreeDsValues | undefined,
  onAttempt: (attempt: AttemptRecord) => void,
): Promise<AttemptsResult> {
  let lastFailure: AttemptRecord | null = null;
  for (const [index, processorId] of order.entries()) {
    const attemptNumber = index + 1;
    const attempt = await attemptOnce(input, processorId, attemptNumber, threeDs);
    onAttempt(attempt);
    if (attempt.outcome === 'approved') return { approved: attempt, lastFailure: null };
    lastFailure = attempt;
    if (attempt.outcome === 'requires_3ds' || !attempt.category || !shouldCascade(attempt.category, flow)) break;
  }
  return { approved: null, lastFailure };
}

async function attemptOnce(
  input: PaymentWorkflowInput,
  processorId: string,
  attemptNumber: number,
  threeDs: ThreeDsValues | undefined,
): Promise<AuthorizeAttemptResult> {
  try {
    return await authorizeAttempt({
      paymentId: input.paymentId,
      attemptNumber,
      processorId,
      accountId: input.accountId,
      mode: input.mode,
      paymentInstrumentId: input.paymentInstrumentId,
      amount: input.amount,
      currency: input.currency,
      capture: input.intent === 'purchase',
      initiatedBy: input.initiatedBy,
      ...(threeDs ? { threeDs } : {}),
    });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    // Retries are spent: the processor is unreachable or broken. Record it and cascade.
    const { code, message } = technicalFailureOf(error);
    const record: AttemptRecord = {
      attemptNumber,
      processorId,
      outcome: 'error',
      errorCode: code,
      category: 'technical',
      message,
      processorReference: null,
    };
    await recordAttempt({ paymentId: input.paymentId, attempt: record });
    return { ...record, captured: false, dispute: null };
  }
}

function technicalFailureOf(error: ActivityFailure): { code: string; message: string } {
  const cause = error.cause;
  if (cause instanceof TimeoutFailure) return { code: 'processor_timeout', message: 'The processor did not answer in time' };
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as { code?: string } | undefined;
    return { code: details?.code ?? 'processor_error', message: cause.message };
  }
  return { code: 'processor_error', message: cause?.message ?? error.message };
}
