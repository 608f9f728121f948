import type { DomainErrorData } from '../errors';
import type { ExistingPaymentRow } from './paymentRequestRows';
import type { PaymentWorkflowInput } from './workflowTypes';

/** The only status a payment workflow resumes a row in: written by its prepare, nothing has decided it yet. */
const resumableStatus = 'processing';

/**
 * Why a payment row found under the workflow's id must not be resumed, or null when it may be.
 * Payment ids derived from an Idempotency-Key (or a charge key) are the same for every request that
 * derives them; a row of another request (other amount, card, customer, session …) or one already
 * decided (succeeded, failed, blocked, waiting for 3-D Secure) is never authorized again.
 */
export function existingPaymentRefusal(
  input: PaymentWorkflowInput,
  row: ExistingPaymentRow,
  runId: string | null,
): DomainErrorData | null {
  const sameRequest =
    row.accountId === input.accountId &&
    row.mode === input.mode &&
    row.storeId === input.storeId &&
    row.amount === input.amount &&
    row.currency === input.currency &&
    row.intent === input.intent &&
    row.customerId === (input.customerId ?? null) &&
    row.paymentInstrumentId === (input.paymentInstrumentId ?? null) &&
    row.checkoutSessionId === (input.checkoutSessionId ?? null) &&
    (!input.orderId || row.orderId === input.orderId);
  if (!sameRequest)
    return {
      kind: 'conflict',
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: `Payment ${input.paymentId} of this key was made for another request; send this payment with a new Idempotency-Key`,
    };
  // This run's own row, decided or not: its first workflow task was lost (the worker died) after
  // the row was written, and the run does its steps again; each of them is safe to repeat.
  if (runId !== null && row.workflowRunId === runId) return null;
  if (row.status !== resumableStatus)
    return {
      kind: 'conflict',
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: `Payment ${input.paymentId} of this key is already ${row.status}; read it with GET /payments/${input.paymentId}, or send a new payment with a new Idempotency-Key`,
    };
  return null;
}
