import type { Db } from '../db/prisma';
import { rawRows } from '../db/rawRows';
import { newId } from '../domain/ids';
import { declineCategoryOf } from '../processors/declineCodes';
import type { AuthorizeResult } from '../processors/types';
import type { AttemptRecord, AuthorizeAttemptResult } from './workflowTypes';

/** The idempotency key the acquirer dedupes on: one key per (payment, attempt). */
export function attemptIdempotencyKey(paymentId: string, attemptNumber: number): string {
  return `${paymentId}:${attemptNumber}`;
}

/** The reversal of an attempt has its own key, so a retried reversal is applied once. */
export function reversalIdempotencyKey(paymentId: string, attemptNumber: number): string {
  return `${attemptIdempotencyKey(paymentId, attemptNumber)}:reversal`;
}

/** One PaymentAttempt row per (payment, attempt number): a retried activity updates, never adds. */
export async function upsertAttempt(db: Db, paymentId: string, attempt: AttemptRecord): Promise<void> {
  // One statement per approved payment: written without Prisma's query runtime (src/db/rawRows.ts).
  await rawRows(db)`
    INSERT INTO payment_attempts (id, payment_id, attempt_number, processor_id, outcome, error_code, category,
                                  message, processor_reference, created_at)
    VALUES (${newId('paymentAttempt')}, ${paymentId}, ${attempt.attemptNumber}::int, ${attempt.processorId},
            ${attempt.outcome}, ${attempt.errorCode}, ${attempt.category}, ${attempt.message},
            ${attempt.processorReference}, (now() AT TIME ZONE 'UTC'))
    ON CONFLICT (payment_id, attempt_number) DO UPDATE
       SET processor_id = EXCLUDED.processor_id, outcome = EXCLUDED.outcome, error_code = EXCLUDED.error_code,
           category = EXCLUDED.category, message = EXCLUDED.message,
           processor_reference = EXCLUDED.processor_reference`;
}

/** A processor's answer as the attempt's record (also a step-up's settled result). */
export function toAttemptResult(
  input: { attemptNumber: number; processorId: string },
  result: AuthorizeResult,
): AuthorizeAttemptResult {
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
        dispute: result.disputeOpened
          ? { amount: result.disputeOpened.amount, reason: result.disputeOpened.reason }
          : null,
      };
    case 'declined':
      return {
        ...base,
        outcome: 'declined',
        errorCode: result.code,
        // The table decides, also for codes it lacks (fail closed), whatever the adapter guessed.
        category: declineCategoryOf(result.code),
        message: result.message,
        processorReference: result.processorReference ?? null,
        captured: false,
        dispute: null,
      };
    case 'requires_action':
      return {
        ...base,
        outcome: 'requires_action',
        errorCode: null,
        category: null,
        message: "Waiting for the shopper at the processor's authentication page",
        processorReference: result.processorReference,
        captured: false,
        dispute: null,
      };
    case 'requires_3ds':
      return {
        ...base,
        outcome: 'requires_3ds',
        errorCode: result.code,
        category: declineCategoryOf(result.code),
        message: result.message ?? null,
        processorReference: null,
        captured: false,
        dispute: null,
      };
  }
}
