import { ApplicationFailure } from '@temporalio/activity';
import { newId } from '../src/domain/ids';
import { declineCategoryOf, isKnownDeclineCode } from '../src/processors/declineCodes';
import { ProcessorTechnicalError, type AuthorizeResult } from '../src/processors/types';
import { processorAccess } from '../src/payments/processorAccess';
import type { AttemptRecord, AuthorizeAttemptInput, AuthorizeAttemptResult } from '../src/payments/workflowTypes';
import { decryptPan } from '../src/vault/cardVault';
import type { ActivityDeps } from './deps';

/** The idempotency key the acquirer dedupes on: one key per (payment, attempt). */
export function attemptIdempotencyKey(paymentId: string, attemptNumber: number): string {
  return `${paymentId}:${attemptNumber}`;
}

export function createPaymentAuthorizeActivities(deps: ActivityDeps) {
  const { db } = deps;

  /** One PaymentAttempt row per (payment, attempt number): a retried activity updates, never adds. */
  async function upsertAttempt(paymentId: string, attempt: AttemptRecord): Promise<void> {
    const data = {
      processorId: attempt.processorId,
      outcome: attempt.outcome,
      errorCode: attempt.errorCode,
      category: attempt.category,
      message: attempt.message,
      processorReference: attempt.processorReference,
    };
    await db.paymentAttempt.upsert({
      where: { paymentId_attemptNumber: { paymentId, attemptNumber: attempt.attemptNumber } },
      create: { id: newId('paymentAttempt'), paymentId, attemptNumber: attempt.attemptNumber, ...data },
      update: data,
    });
  }

  return {
    /**
     * Calls the processor once for this attempt (card decrypted in memory only). A decline is
     * returned as data; an integration failure is thrown as a retryable ProcessorTechnicalError
     * and retried by the workflow's policy under the same idempotency key.
     */
    async authorizeAttempt(input: AuthorizeAttemptInput): Promise<AuthorizeAttemptResult> {
      const scope = { accountId: input.accountId, mode: input.mode };
      const instrument = await db.paymentInstrument.findFirstOrThrow({ where: { id: input.paymentInstrumentId, ...scope } });
      let access;
      try {
        access = await processorAccess(deps, scope, input.processorId);
      } catch (error) {
        // Missing processor, unknown type or unreadable credentials: a retry cannot help; cascade.
        throw ApplicationFailure.nonRetryable((error as Error).message, 'ProcessorConfigurationError', { code: 'processor_unavailable' });
      }
      let result: AuthorizeResult;
      try {
        result = await access.adapter.authorize({
          idempotencyKey: attemptIdempotencyKey(input.paymentId, input.attemptNumber),
          paymentId: input.paymentId,
          amount: input.amount,
          currency: input.currency,
          card: {
            number: decryptPan(instrument.encryptedPan, deps.config),
            expMonth: instrument.expMonth,
            expYear: instrument.expYear,
            holderName: instrument.cardholderName ?? undefined,
          },
          capture: input.capture,
          initiatedBy: input.initiatedBy,
          // External 3DS values go only to a processor that has 3DS on and accepts them; a hosted-3DS
          // processor runs its own and ignores ours (a capability, not a special case).
          ...(input.threeDs && access.enable3DS && access.adapter.capabilities.externalThreeDs ? { threeDs: input.threeDs } : {}),
          credentials: access.credentials,
        });
      } catch (error) {
        if (error instanceof ProcessorTechnicalError) {
          throw ApplicationFailure.retryable(error.message, 'ProcessorTechnicalError', { code: error.code });
        }
        throw error;
      }
      const answer = toAttemptResult(input, result);
      await upsertAttempt(input.paymentId, answer);
      return answer;
    },

    /** Records an attempt the workflow decided on itself (retries of a technical failure spent). */
    async recordAttempt(input: { paymentId: string; attempt: AttemptRecord }): Promise<void> {
      await upsertAttempt(input.paymentId, input.attempt);
    },
  };
}

function toAttemptResult(input: AuthorizeAttemptInput, result: AuthorizeResult): AuthorizeAttemptResult {
  const base = { attemptNumber: input.attemptNumber, processorId: input.processorId };
  switch (result.outcome) {
    case 'approved':
      return {
        ...base,
        outcome: 'approved',
        errorCode: null,
        category: null,
        message: null,
        processorReference: result.processorReference,
        captured: result.captured,
        dispute: result.disputeOpened ? { amount: result.disputeOpened.amount, reason: result.disputeOpened.reason } : null,
      };
    case 'declined':
      return {
        ...base,
        outcome: 'declined',
        errorCode: result.code,
        // The table decides for known codes; an adapter's own call stands for codes the table lacks.
        category: isKnownDeclineCode(result.code) ? declineCategoryOf(result.code) : result.category,
        message: result.message,
        processorReference: result.processorReference ?? null,
        captured: false,
        dispute: null,
      };
    case 'requires_3ds':
      return { ...base, outcome: 'requires_3ds', errorCode: result.code, category: 'soft_decline', message: result.message, processorReference: null, captured: false, dispute: null };
  }
}
