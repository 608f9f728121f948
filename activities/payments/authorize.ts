import { ApplicationFailure } from '@temporalio/activity';
import { isKnownDeclineCode, isOutcomeUnknown } from '../../src/processors/declineCodes';
import { ProcessorTechnicalError, type LookupStatus } from '../../src/processors/types';
import { paymentAttempts, paymentCascades } from '../../src/metrics/metrics';
import {
  accessOf,
  processorAccess,
  ProcessorMissingError,
  type ProcessorAccess,
} from '../../src/payments/processorAccess';
import { claimAttempt, settleClaimTry } from '../../src/payments/attemptClaims';
import type {
  AttemptRecord,
  AuthorizeAttemptInput,
  AuthorizeAttemptResult,
  AuthorizeFailureDetails,
  ReverseAttemptInput,
  ReverseAttemptResult,
} from '../../src/payments/workflowTypes';
import { decryptPan } from '../../src/vault/cardVault';
import { adviseAuthentication } from '../../src/payments/authenticationAdvice';
import { stepUpReturnUrl, stepUpStartUrl } from '../../src/payments/stepUpLinks';
import type { ActivityDeps } from '../deps';
import {
  attemptIdempotencyKey,
  reversalIdempotencyKey,
  toAttemptResult,
  upsertAttempt as upsertAttemptRow,
} from '../../src/payments/attemptRows';

export function createPaymentAuthorizeActivities(deps: ActivityDeps) {
  const { db } = deps;

  const upsertAttempt = (paymentId: string, attempt: AttemptRecord) => upsertAttemptRow(db, paymentId, attempt);

  return {
    /**
     * Calls the processor once for this attempt (card decrypted in memory only), after claiming the
     * try in Postgres (`claimAttempt`). A decline is returned as data; a failure is thrown as an
     * ApplicationFailure whose details say whether any try so far may have charged
     * (`AuthorizeFailureDetails`), retried by the workflow's policy under the same idempotency key.
     * Runs as a regular or a local activity: the claim row, not the activity's attempt counter,
     * carries what earlier tries did.
     */
    async authorizeAttempt(input: AuthorizeAttemptInput): Promise<AuthorizeAttemptResult> {
      // Unknown until the claim is read: a try that cannot read it must assume the worst.
      let earlierTryMayHaveCharged = true;
      let claimed = false;
      let sent = false;
      let processorType = 'unknown';
      try {
        const { instrument, processor, tryNumber, ...claim } = await claimAttempt(db, input);
        earlierTryMayHaveCharged = claim.earlierTryMayHaveCharged;
        claimed = true;
        if (!instrument) throw new Error(`Payment instrument ${input.paymentInstrumentId} not found`);
        let access: ProcessorAccess;
        try {
          if (!processor) throw new ProcessorMissingError(input.processorId);
          access = accessOf(deps, processor);
        } catch (error) {
          throw new ProcessorConfigurationError((error as Error).message);
        }
        processorType = access.type;
        // A later attempt number is the next processor of the flow; counted on its first try only.
        if (input.attemptNumber > 1 && tryNumber === 1) paymentCascades.inc({ processor: processorType });
        sent = true;
        const result = await access.adapter.authorize({
          idempotencyKey: attemptIdempotencyKey(input.paymentId, input.attemptNumber),
          paymentId: input.paymentId,
          amount: input.amount,
          currency: input.currency,
          card: {
            number: decryptPan(instrument.encryptedPan, input.paymentInstrumentId, deps.config),
            expMonth: instrument.expMonth,
            expYear: instrument.expYear,
            holderName: instrument.cardholderName ?? undefined,
          },
          capture: input.capture,
          initiatedBy: input.initiatedBy,
          // External 3DS values go only to a processor that has 3DS on and accepts them; a hosted-3DS
          // processor runs its own and ignores ours (a capability, not a special case).
          ...(input.threeDs && access.enable3DS && access.adapter.capabilities.externalThreeDs
            ? { threeDs: input.threeDs }
            : {}),
          // The processor may answer an issuer's demand for authentication with its own page (step-up)
          // only when the payment can wait for the shopper and the processor can tell the result later.
          ...(input.stepUp && access.adapter.capabilities.stepUp && access.adapter.authenticationResult
            ? {
                returnUrl: stepUpReturnUrl(
                  deps.config,
                  input.paymentId,
                  input.attemptNumber,
                  input.stepUp.returnBaseUrl,
                ),
              }
            : {}),
          ...(input.browserInfo ? { browserInfo: input.browserInfo } : {}),
          ...(input.shopperIp ? { shopperIp: input.shopperIp } : {}),
          credentials: access.credentials,
        });
        if (result.outcome === 'declined' && !isKnownDeclineCode(result.code)) {
          deps.logger.warn(
            { paymentId: input.paymentId, processorId: input.processorId, code: result.code },
            'processor answered a code the decline table lacks; treated as a hard decline',
          );
        }
        const answer = toAttemptResult(input, result);
        if (result.outcome === 'requires_action') {
          const seenByApi = input.stepUp?.returnBaseUrl ?? null;
          answer.stepUp = {
            redirectUrl: stepUpStartUrl(deps.config, input.paymentId, input.attemptNumber, seenByApi),
            action: result.action,
          };
        }
        // What to turn on, named on the payment's own flow and this processor.
        if (result.outcome === 'requires_3ds')
          answer.message = await adviseAuthentication(db, input, access.enable3DS, result.message);
        await upsertAttempt(input.paymentId, answer);
        paymentAttempts.inc({ processor: processorType, outcome: answer.outcome });
        return answer;
      } catch (error) {
        if (sent) paymentAttempts.inc({ processor: processorType, outcome: 'error' });
        const failure = attemptFailure(error, earlierTryMayHaveCharged, sent);
        if (claimed) await settleClaimTry(db, input, failure.details.mayHaveCharged).catch(() => undefined);
        throw failure.applicationFailure;
      }
    },

    /** Records an attempt the workflow decided on itself (retries of a technical failure spent). */
    async recordAttempt(input: { paymentId: string; attempt: AttemptRecord }): Promise<void> {
      await upsertAttempt(input.paymentId, input.attempt);
    },

    /**
     * Resolves an attempt whose answer never came (saga compensation): first asks the processor
     * what stands under the attempt's key (`lookup`); only a charge that stands, or a call still
     * being processed, is undone by the key. Technical failures are thrown (retried); a refusal is data.
     */
    async reverseAttempt(input: ReverseAttemptInput): Promise<ReverseAttemptResult> {
      const access = await processorAccess(
        deps,
        { accountId: input.accountId, mode: input.mode },
        input.processorId,
      ).catch((error: unknown) => {
        throw ApplicationFailure.nonRetryable((error as Error).message, 'ProcessorConfigurationError', {
          code: 'processor_unavailable',
        });
      });
      try {
        const originalIdempotencyKey = attemptIdempotencyKey(input.paymentId, input.attemptNumber);
        const standing = await access.adapter.lookup({
          idempotencyKey: originalIdempotencyKey,
          credentials: access.credentials,
        });
        if (standing.outcome === 'not_found' || !mayStillCharge.has(standing.status)) {
          deps.logger.info(
            { paymentId: input.paymentId, attemptNumber: input.attemptNumber, lookup: standing },
            'unknown attempt outcome resolved by lookup: nothing charged, nothing to reverse',
          );
          return { outcome: 'nothing_to_reverse' };
        }
        const result = await access.adapter.reverseByIdempotencyKey({
          idempotencyKey: reversalIdempotencyKey(input.paymentId, input.attemptNumber),
          originalIdempotencyKey,
          amount: input.amount,
          currency: input.currency,
          credentials: access.credentials,
        });
        if (result.outcome === 'failed') return { outcome: 'refused', code: result.code, message: result.message };
        return result;
      } catch (error) {
        if (error instanceof ProcessorTechnicalError)
          throw ApplicationFailure.retryable(error.message, 'ProcessorTechnicalError', { code: error.code });
        throw error;
      }
    },
  };
}

/** Lookup states under which money stands or may still move: those are reversed, the others need nothing. */
const mayStillCharge: ReadonlySet<LookupStatus> = new Set(['authorized', 'captured', 'pending']);

/** Missing processor, unknown type or unreadable credentials: a retry cannot help, and nothing was sent. */
class ProcessorConfigurationError extends Error {
  override readonly name = 'ProcessorConfigurationError';
}

function attemptFailure(
  error: unknown,
  earlierTryMayHaveCharged: boolean,
  sent: boolean,
): { details: AuthorizeFailureDetails; applicationFailure: ApplicationFailure } {
  const message = (error as Error | undefined)?.message ?? String(error);
  let details: AuthorizeFailureDetails;
  let type: string;
  if (error instanceof ProcessorTechnicalError) {
    details = { code: error.code, mayHaveCharged: earlierTryMayHaveCharged || isOutcomeUnknown(error.code) };
    type = 'ProcessorTechnicalError';
  } else if (error instanceof ProcessorConfigurationError) {
    details = { code: 'processor_unavailable', mayHaveCharged: earlierTryMayHaveCharged };
    type = error.name;
  } else {
    // A database or programming failure: once the call went out, its charge may stand unrecorded.
    details = { code: 'processor_error', mayHaveCharged: earlierTryMayHaveCharged || sent };
    type = 'PaymentAttemptError';
  }
  const applicationFailure = ApplicationFailure.create({
    message,
    type,
    details: [details],
    nonRetryable: error instanceof ProcessorConfigurationError,
  });
  return { details, applicationFailure };
}
