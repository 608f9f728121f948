import { ActivityFailure, ApplicationFailure, proxyActivities, TimeoutFailure } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { authorization } from '../shared/activityOptions';
import { declineCategoryOf, isOutcomeUnknown } from '../../src/processors/declineCodes';
import type { ThreeDsValues } from '../../src/processors/types';
import type {
  AttemptRecord,
  AuthorizeAttemptResult,
  AuthorizeFailureDetails,
  ChargeInput,
} from '../../src/payments/workflowTypes';

const { authorizeAttempt } = proxyActivities<Activities>(authorization);

export type Attempt = AuthorizeAttemptResult & { failure?: FailedAttempt };

export interface FailedAttempt {
  record: AttemptRecord;
  mayHaveCharged: boolean;
}

/**
 * One authorization at one processor under the idempotency key (payment id, attempt number). When
 * its retries are spent the attempt is a technical failure, as data: whether it may have charged
 * decides whether it must be reversed.
 */
export async function attemptOnce(
  input: ChargeInput,
  processorId: string,
  attemptNumber: number,
  threeDs: ThreeDsValues | undefined,
  canStepUp: boolean,
): Promise<Attempt> {
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
      ...(canStepUp ? { stepUp: { returnBaseUrl: input.returnBaseUrl ?? null } } : {}),
      ...(input.browserInfo ? { browserInfo: input.browserInfo } : {}),
      ...(input.clientIp ? { shopperIp: input.clientIp } : {}),
    });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    // Retries are spent: the processor is unreachable, broken, or silent.
    const { code, message, mayHaveCharged } = technicalFailureOf(error);
    const record: AttemptRecord = {
      attemptNumber,
      processorId,
      outcome: 'error',
      errorCode: code,
      category: declineCategoryOf(code),
      message,
      processorReference: null,
    };
    return { ...record, captured: false, dispute: null, failure: { record, mayHaveCharged } };
  }
}

function technicalFailureOf(error: ActivityFailure): { code: string; message: string; mayHaveCharged: boolean } {
  const cause = error.cause;
  // The activity itself ran out of time: the call may have gone out.
  if (cause instanceof TimeoutFailure)
    return { code: 'processor_timeout', message: 'The processor did not answer in time', mayHaveCharged: true };
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as Partial<AuthorizeFailureDetails> | undefined;
    const code = details?.code ?? 'processor_error';
    return { code, message: cause.message, mayHaveCharged: details?.mayHaveCharged ?? isOutcomeUnknown(code) };
  }
  return { code: 'processor_error', message: cause?.message ?? error.message, mayHaveCharged: true };
}
