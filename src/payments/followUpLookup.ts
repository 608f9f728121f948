import type { FollowUpCall, ProcessorFollowUp, SettlementOperation } from './followUpTypes';
import { processorAccess } from './processorAccess';
import { ProcessorTechnicalError, type LookupResult } from '../processors/types';
import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { attemptIdempotencyKey } from './attemptRows';

/**
 * What a follow-up the processor answered `pending` came to, asked after the workflow waited long
 * for the processor's webhook. First the engine's own rows (the webhook route may have settled them
 * while its signal was lost), then the processor's `lookup` of the payment. The contract's lookup
 * says what the payment is, not what one refund is, so only unambiguous states count:
 * - capture: `captured` / `refunded` → succeeded; `voided` / `declined` → failed;
 * - void: `voided` → succeeded; `captured` / `refunded` → failed;
 * - refund: a payment `voided` or `declined` has nothing refunded → failed; otherwise still
 *   pending (a partial refund cannot be told from the payment, and Stripe counts pending refunds
 *   in `amount_refunded`).
 * Anything else, and a technical failure of the lookup, is `pending`: the workflow asks again later.
 */
export interface FollowUpLookupInput {
  accountId: string;
  mode: 'test' | 'live';
  paymentId: string;
  operation: SettlementOperation | 'refund';
  call: FollowUpCall;
  /** Refunds: the refund row; captures and voids: the workflow that claimed the payment. */
  refundId?: string;
  settlementOwner?: string;
}

const pending = (call: FollowUpCall): ProcessorFollowUp => ({
  outcome: 'pending',
  processorReference: call.processorReference,
});
const succeeded = (call: FollowUpCall): ProcessorFollowUp => ({
  outcome: 'succeeded',
  processorReference: call.processorReference,
  dispute: null,
});
const failed = (code: string, message: string): ProcessorFollowUp => ({ outcome: 'failed', code, message });

export function followUpFromLookup(
  operation: FollowUpLookupInput['operation'],
  lookup: LookupResult,
  call: FollowUpCall,
): ProcessorFollowUp {
  if (lookup.outcome === 'not_found') return pending(call);
  const says = (code: string) => failed(code, `The processor reports the payment ${lookup.status}`);
  switch (operation) {
    case 'capture':
      if (lookup.status === 'captured' || lookup.status === 'refunded') return succeeded(call);
      if (lookup.status === 'voided' || lookup.status === 'declined') return says('already_voided');
      return pending(call);
    case 'void':
      if (lookup.status === 'voided') return succeeded(call);
      if (lookup.status === 'captured' || lookup.status === 'refunded') return says('already_captured');
      return pending(call);
    case 'refund':
      if (lookup.status === 'voided' || lookup.status === 'declined') return says('not_captured');
      return pending(call);
  }
}

/** Settled already in the engine's rows (by the webhook route)? Its outcome, else undefined. */
async function settledInRows(db: Db, input: FollowUpLookupInput): Promise<ProcessorFollowUp | undefined> {
  if (input.refundId) {
    const refund = await db.refund.findUniqueOrThrow({ where: { id: input.refundId } });
    if (refund.status === 'succeeded') return succeeded(input.call);
    if (refund.status === 'failed')
      return failed(refund.failureCode ?? 'refund_failed', 'The processor failed the refund');
    return undefined;
  }
  const payment = await db.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
  const owner = (payment.metadata as Record<string, unknown> | null)?.settlement;
  if (payment.status === 'processing' && owner === input.settlementOwner) return undefined;
  return payment.status === 'authorized'
    ? failed('processor_declined', 'The processor failed the operation')
    : succeeded(input.call);
}

/** What a pending follow-up came to: the engine's rows first, then the processor's lookup (see FollowUpLookupInput). */
export async function lookUpFollowUp(
  deps: { db: Db; config: Config; sandboxUrl: string },
  input: FollowUpLookupInput,
): Promise<ProcessorFollowUp> {
  const { db } = deps;
  const settled = await settledInRows(db, input);
  if (settled) return settled;
  const attempt = await db.paymentAttempt.findFirst({
    where: { paymentId: input.paymentId, processorId: input.call.processorId, outcome: 'approved' },
    orderBy: { attemptNumber: 'desc' },
  });
  if (!attempt) return pending(input.call);
  try {
    const access = await processorAccess(deps, input, input.call.processorId);
    const lookup = await access.adapter.lookup({
      idempotencyKey: attemptIdempotencyKey(input.paymentId, attempt.attemptNumber),
      processorReference: input.call.processorReference,
      credentials: access.credentials,
    });
    return followUpFromLookup(input.operation, lookup, input.call);
  } catch (error) {
    // Unanswered: still pending; the workflow asks again after its next wait.
    if (error instanceof ProcessorTechnicalError) return pending(input.call);
    throw error;
  }
}
