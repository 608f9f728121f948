import {
  ActivityFailure,
  ApplicationFailure,
  patched,
  proxyActivities,
  proxyLocalActivities,
  TimeoutFailure,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { authorization, localAuthorization } from '../shared/activityOptions';
import { declineCategoryOf, isOutcomeUnknown } from '../../src/processors/declineCodes';
import type { ThreeDsValues } from '../../src/processors/types';
import type {
  AttemptRecord,
  AuthorizeAttemptInput,
  AuthorizeAttemptResult,
  AuthorizeFailureDetails,
  ChargeInput,
} from '../../src/payments/workflowTypes';

const remote = proxyActivities<Activities>(authorization);
const local = proxyLocalActivities<Activities>(localAuthorization);

/**
 * Runs before this change recorded the authorization as a scheduled activity, a second workflow
 * task after it; runs from now on call the processor in the workflow task that is running (local
 * activity), so a frictionless payment answers from its first task.
 */
export const authorizeInWorkflowTask = 'authorize-in-workflow-task';

function authorizeAttempt(input: AuthorizeAttemptInput): Promise<AuthorizeAttemptResult> {
  return patched(authorizeInWorkflowTask) ? local.authorizeAttempt(input) : remote.authorizeAttempt(input);
}

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
    const cause = causeOfSpentRetries(error);
    if (!cause) throw error;
    // Retries are spent: the processor is unreachable, broken, or silent.
    const { code, message, mayHaveCharged } = technicalFailureOf(cause);
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

/**
 * What ended an activity whose retries are spent: an activity's failure arrives as an
 * ActivityFailure around its cause, a local activity's as the cause itself.
 */
function causeOfSpentRetries(error: unknown): Error | undefined {
  if (error instanceof ActivityFailure) return error.cause ?? error;
  if (error instanceof ApplicationFailure || error instanceof TimeoutFailure) return error;
  return undefined;
}

function technicalFailureOf(cause: Error): { code: string; message: string; mayHaveCharged: boolean } {
  // The activity itself ran out of time: the call may have gone out.
  if (cause instanceof TimeoutFailure)
    return { code: 'processor_timeout', message: 'The processor did not answer in time', mayHaveCharged: true };
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as Partial<AuthorizeFailureDetails> | undefined;
    const code = details?.code ?? 'processor_error';
    return { code, message: cause.message, mayHaveCharged: details?.mayHaveCharged ?? isOutcomeUnknown(code) };
  }
  return { code: 'processor_error', message: cause.message, mayHaveCharged: true };
}
