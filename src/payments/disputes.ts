import type { Db } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import { newId } from '../domain/ids';
import { conflict, notFound } from '../errors';
import { recordEvent } from '../events/recordEvent';

export type DisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';

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
    if (payment.amountCaptured === 0) throw conflict('Only a captured payment can be disputed', 'PAYMENT_NOT_CAPTURED');
    if ((input.amount ?? 0) > payment.amountCaptured)
      throw conflict(`A dispute cannot exceed the captured ${payment.amountCaptured}`, 'DISPUTE_EXCEEDS_CAPTURED');
    const row = await tx.dispute.create({
      data: {
        id: newId('dispute'),
        paymentId: payment.id,
        amount: input.amount ?? payment.amountCaptured,
        currency: payment.currency,
        status: input.status,
        reason: input.reason ?? null,
      },
    });
    const event = await recordEvent(tx, {
      ...scope,
      storeId: payment.storeId,
      customerId: payment.customerId,
      eventType: 's_payment_disputed',
      properties: {
        paymentId: payment.id,
        disputeId: row.id,
        amount: row.amount,
        currency: row.currency,
        reason: row.reason,
        status: row.status,
      },
    });
    return { dispute: row, eventId: event.id };
  });
}

/** A dispute of one of the caller's payments, or not_found. */
export async function findDispute(db: Db, scope: Scope, disputeId: string) {
  const dispute = await db.dispute.findFirst({ where: { id: disputeId, payment: scope } });
  if (!dispute) throw notFound('Dispute');
  return dispute;
}

export function setDisputeStatus(db: Db, disputeId: string, status: DisputeStatus) {
  return db.dispute.update({ where: { id: disputeId }, data: { status } });
}
