import { ApplicationFailure } from '@temporalio/activity';
import { declineCategoryOf } from '../../src/processors/declineCodes';
import { ProcessorTechnicalError, type AuthenticationResult } from '../../src/processors/types';
import { processorAccess, type ProcessorAccess } from '../../src/payments/processorAccess';
import type { AuthorizeAttemptResult, StepUpCheck, StepUpCheckInput } from '../../src/payments/workflowTypes';
import { paymentIntentOf } from '../../src/payments/queries';
import type { ActivityDeps } from '../deps';
import {
  attemptIdempotencyKey,
  reversalIdempotencyKey,
  toAttemptResult,
  upsertAttempt,
} from '../../src/payments/attemptRows';

/**
 * The processor-hosted authentication (step-up) of one attempt, once the shopper is back, the
 * processor has told by webhook, or the wait ran out. Reading the result never moves money;
 * giving up cancels at the processor under the attempt's reversal key, and whatever came through
 * meanwhile is undone by that same call, so an abandoned step-up leaves no charge.
 */
export function createPaymentStepUpActivities(deps: ActivityDeps) {
  const { db } = deps;

  async function accessFor(input: StepUpCheckInput): Promise<ProcessorAccess> {
    const scope = { accountId: input.accountId, mode: input.mode };
    const access = await processorAccess(deps, scope, input.processorId).catch((error: unknown) => {
      throw ApplicationFailure.nonRetryable((error as Error).message, 'ProcessorConfigurationError');
    });
    if (!access.adapter.authenticationResult)
      throw ApplicationFailure.nonRetryable(
        `processor type ${access.type} cannot tell a step-up's result`,
        'StepUpError',
      );
    return access;
  }

  async function resultOf(input: StepUpCheckInput, access: ProcessorAccess): Promise<AuthenticationResult> {
    const intent = await paymentIntentOf(db, input.paymentId);
    return access.adapter.authenticationResult!({
      processorReference: input.processorReference,
      idempotencyKey: attemptIdempotencyKey(input.paymentId, input.attemptNumber),
      ...(input.returnData ? { returnData: input.returnData } : {}),
      capture: intent === 'purchase',
      credentials: access.credentials,
    });
  }

  async function settle(input: StepUpCheckInput, attempt: AuthorizeAttemptResult): Promise<StepUpCheck> {
    await upsertAttempt(db, input.paymentId, attempt);
    return { settled: true, attempt };
  }

  const technical = (error: unknown): never => {
    if (error instanceof ProcessorTechnicalError)
      throw ApplicationFailure.retryable(error.message, 'ProcessorTechnicalError', { code: error.code });
    throw error;
  };

  return {
    /** Asks the processor how the authentication and the authorization behind it ended; `settled: false` while undecided. */
    async checkStepUp(input: StepUpCheckInput): Promise<StepUpCheck> {
      const access = await accessFor(input);
      const result = await resultOf(input, access).catch(technical);
      if (result.outcome === 'pending') return { settled: false };
      return settle(input, attemptOf(input, result));
    },

    /**
     * The wait ran out: a result that arrived at the last moment still counts; otherwise the
     * authorization is canceled at the processor (Stripe: the PaymentIntent) and the attempt fails
     * `authentication_timeout`. A cancel the processor refuses is retried, never assumed.
     */
    async abandonStepUp(input: StepUpCheckInput): Promise<StepUpCheck> {
      const access = await accessFor(input);
      const result = await resultOf(input, access).catch(technical);
      if (result.outcome !== 'pending') return settle(input, attemptOf(input, result));
      const reversal = await access.adapter
        .reverseByIdempotencyKey({
          idempotencyKey: reversalIdempotencyKey(input.paymentId, input.attemptNumber),
          originalIdempotencyKey: attemptIdempotencyKey(input.paymentId, input.attemptNumber),
          amount: input.amount,
          currency: input.currency,
          credentials: access.credentials,
        })
        .catch(technical);
      if (reversal.outcome === 'failed')
        throw ApplicationFailure.retryable(
          `the processor refused the cancel: ${reversal.message}`,
          'StepUpCancelRefused',
        );
      const late = reversal.outcome === 'reversed' ? '; an authorization that came through meanwhile was reversed' : '';
      return settle(
        input,
        attemptOf(input, {
          outcome: 'declined',
          code: 'authentication_timeout',
          category: declineCategoryOf('authentication_timeout'),
          message: `The shopper did not complete the authentication in time; canceled at the processor${late}`,
          processorReference: input.processorReference,
        }),
      );
    },
  };
}

function attemptOf(
  input: StepUpCheckInput,
  result: Exclude<AuthenticationResult, { outcome: 'pending' }>,
): AuthorizeAttemptResult {
  // A demand for authentication after the page means the shopper's authentication did not count.
  if (result.outcome === 'requires_3ds')
    return toAttemptResult(input, {
      outcome: 'declined',
      code: 'authentication_failed',
      category: declineCategoryOf('authentication_failed'),
      message: result.message,
      processorReference: input.processorReference,
    });
  const attempt = toAttemptResult(input, result);
  return { ...attempt, processorReference: attempt.processorReference ?? input.processorReference };
}
