import type { Db, Prisma } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import { newId } from '../domain/ids';
import { disputeAmount, type DisputeStatus } from '../domain/paymentAmounts';
import { conflict, notFound, orNotFound } from '../errors';
import { recordPaymentEvents } from './refundOutcomes';

export type { DisputeStatus };

export interface NewDispute {
  paymentId: string;
  /** Minor units, at most what was captured; default all of it. */
  amount?: number;
  status: DisputeStatus;
  reason?: string;
}

/**
 * Records a dispute of a captured payment of the caller with its `s_payment_disputed` event, in
 * one transaction; answers the event id to dispatch once committed.
 */
export async function createDispute(db: Db, scope: Scope, input: NewDispute) {
  return db.$transaction(async (tx) => {
    const payment = await tx.payment.findFirst({ where: { id: input.paymentId, ...scope } });
    if (!payment) throw notFound('Payment');
    const amount = disputeAmount(payment.amountCaptured, input.amount);
    if (!amount.ok && amount.reason === 'not_captured')
      throw conflict('Only a captured payment can be disputed', 'PAYMENT_NOT_CAPTURED');
    if (!amount.ok)
      throw conflict(`A dispute cannot exceed the captured ${payment.amountCaptured}`, 'DISPUTE_EXCEEDS_CAPTURED');
    return recordDispute(tx, payment, {
      amount: amount.amount,
      status: input.status,
      reason: input.reason ?? null,
    });
  });
}

/**
 * A dispute row of a payment and its `s_payment_disputed` event, in the caller's transaction (the
 * disputes route, a processor's chargeback webhook, a capture the processor answers disputed).
 */
export async function recordDispute(
  tx: Prisma.TransactionClient,
  payment: {
    id: string;
    currency: string;
    accountId: string;
    mode: 'test' | 'live';
    storeId: string;
    customerId: string | null;
  },
  fields: { amount: number; status: DisputeStatus; reason: string | null; processorReference?: string | null },
) {
  // The payment row's lock orders a dispute against a concurrent refund reservation (refundReservation.ts).
  await tx.$queryRaw`SELECT 1 FROM "payments" WHERE "id" = ${payment.id} FOR UPDATE`;
  const dispute = await tx.dispute.create({
    data: { id: newId('dispute'), paymentId: payment.id, currency: payment.currency, ...fields },
  });
  const [eventId] = await recordPaymentEvents(tx, payment, [
    [
      's_payment_disputed',
      {
        paymentId: payment.id,
        disputeId: dispute.id,
        amount: dispute.amount,
        currency: dispute.currency,
        reason: dispute.reason,
        status: dispute.status,
      },
    ],
  ]);
  return { dispute, eventId: eventId! };
}

/** A dispute of one of the caller's payments, or not_found. */
export async function findDispute(db: Db, scope: Scope, disputeId: string) {
  return orNotFound(await db.dispute.findFirst({ where: { id: disputeId, payment: scope } }), 'Dispute');
}

/** Under the payment's lock, like recording one: a refund reserved meanwhile saw the status before or after, never between. */
export function setDisputeStatus(db: Db, dispute: { id: string; paymentId: string }, status: DisputeStatus) {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "payments" WHERE "id" = ${dispute.paymentId} FOR UPDATE`;
    return tx.dispute.update({ where: { id: dispute.id }, data: { status } });
  });
}
