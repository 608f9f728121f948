import type { Db } from '../db/prisma';
import { refundAmount } from '../domain/paymentAmounts';
import type { DomainErrorData } from '../errors';
import type { Payment, Refund } from '../generated/prisma/client';
import type { RefundInput } from './followUpTypes';

/** Disputes that forbid a refund: still open, or lost (the money went back through the chargeback). A won one does not. */
export const refundBlockingDisputeStatuses = ['needs_response', 'under_review', 'lost'];

const refundable = ['succeeded', 'partially_refunded'];

/** A refund as the workflow asks for it; how long a pending answer waits is none of the reservation's business. */
export type RefundRequest = Omit<RefundInput, 'confirmationWaitMs'>;

export type RefundReservation =
  { kind: 'reserved'; payment: Payment; amount: number } | { kind: 'refused'; error: DomainErrorData };

const refused = (code: string, message: string): RefundReservation => ({
  kind: 'refused',
  error: { kind: 'conflict', code, message },
});

/**
 * REFUND_EXCEEDS_CAPTURED with what the caller can still do: the amount left to refund, in minor
 * units and currency as the API takes them (pending refunds hold their amount until they settle).
 */
export function refundExceedsMessage(
  payment: { amountCaptured: number; amountRefunded: number; currency: string },
  requested: number | null | undefined,
): string {
  const { amountCaptured: captured, amountRefunded: reserved, currency } = payment;
  const left = Math.max(0, captured - reserved);
  const books = `(minor units; ${captured} captured, ${reserved} already refunded or pending)`;
  if (left === 0) return `Nothing is left to refund on this payment: 0 ${currency} is refundable ${books}`;
  const asked = requested == null ? 'This refund' : `A refund of ${requested} ${currency}`;
  return (
    `${asked} would exceed the captured amount: ${left} ${currency} is still refundable ${books}; ` +
    `send an amount up to ${left}, or none to refund all that is left`
  );
}

const exceedsCaptured = (...args: Parameters<typeof refundExceedsMessage>) =>
  refused('REFUND_EXCEEDS_CAPTURED', refundExceedsMessage(...args));

/**
 * Reserves a refund's amount BEFORE the processor is called, in one transaction: the payment row is
 * locked (dispute recording locks it too, so a dispute and a refund never pass each other), its
 * disputes are read, the amount is added to `amount_refunded` with a conditional UPDATE (only while
 * the sum stays within `amount_captured`), and the refund row is written `pending`. A refund row
 * already under this id is resumed only when it is this request's (same payment, same amount when
 * one was given) and still pending: the id is derived from the caller's Idempotency-Key, and a row
 * of another request, or one already settled, must never be sent to the processor again.
 */
export async function reserveRefundAmount(db: Db, input: RefundRequest): Promise<RefundReservation> {
  const payment = await db.payment.findFirst({
    where: { id: input.paymentId, accountId: input.accountId, mode: input.mode },
  });
  if (!payment)
    return { kind: 'refused', error: { kind: 'not_found', code: 'NOT_FOUND', message: 'Payment not found' } };
  const existing = await db.refund.findUnique({ where: { id: input.refundId } });
  if (existing) return resumable(existing, payment, input);
  if (!refundable.includes(payment.status) || payment.amountCaptured === 0)
    return refused('PAYMENT_NOT_REFUNDABLE', `Only a captured payment can be refunded; this one is ${payment.status}`);
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "payments" WHERE "id" = ${payment.id} FOR UPDATE`;
    const locked = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
    const dispute = await tx.dispute.findFirst({
      where: { paymentId: payment.id, status: { in: refundBlockingDisputeStatuses } },
      orderBy: { createdAt: 'desc' },
    });
    if (dispute)
      return refused(
        'PAYMENT_DISPUTED',
        `Payment ${payment.id} has a dispute that is ${dispute.status} (${dispute.id}); it cannot be refunded unless the dispute is won`,
      );
    const planned = refundAmount(locked.amountCaptured, locked.amountRefunded, input.amount);
    if (!planned.ok) return exceedsCaptured(locked, input.amount);
    const { amount } = planned;
    // The same rule again in the UPDATE: it holds against concurrent refunds of the payment.
    const rows = await tx.$executeRaw`
      UPDATE "payments" SET "amount_refunded" = "amount_refunded" + ${amount}, "updated_at" = CURRENT_TIMESTAMP
       WHERE "id" = ${payment.id} AND "status" IN ('succeeded', 'partially_refunded')
         AND "amount_refunded" + ${amount} <= "amount_captured"`;
    if (rows !== 1) return exceedsCaptured(locked, input.amount);
    await tx.refund.create({
      data: {
        id: input.refundId,
        paymentId: payment.id,
        amount,
        currency: payment.currency,
        status: 'pending',
        reason: input.reason ?? null,
      },
    });
    return { kind: 'reserved' as const, payment: locked, amount };
  });
}

/** A retried reservation after its commit finds its own pending row; anything else under the id is refused. */
function resumable(existing: Refund, payment: Payment, input: RefundRequest): RefundReservation {
  const sameRequest =
    existing.paymentId === input.paymentId && (input.amount == null || input.amount === existing.amount);
  if (!sameRequest)
    return refused(
      'IDEMPOTENCY_KEY_REUSED',
      `Refund ${existing.id} of this Idempotency-Key belongs to another request; send this refund with a new key`,
    );
  if (existing.status !== 'pending')
    return refused(
      'IDEMPOTENCY_KEY_REUSED',
      `Refund ${existing.id} of this Idempotency-Key is already ${existing.status}; read it on its payment, or send a new refund with a new key`,
    );
  return { kind: 'reserved', payment, amount: existing.amount };
}
