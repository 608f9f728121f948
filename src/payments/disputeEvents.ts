import type { Prisma } from '../db/prisma';
import { disputeClosableFrom, processorDisputeAmount } from '../domain/paymentAmounts';
import type { Payment } from '../generated/prisma/client';
import type { ProcessorEvent } from '../processors/types';
import { recordDispute } from './disputes';
import { recordPaymentEvents } from './refundOutcomes';

type Tx = Prisma.TransactionClient;

export type DisputeEventEffect = 'dispute_opened' | 'dispute_closed' | 'already_settled' | 'not_applicable';

export interface DisputeEventResult {
  effect: DisputeEventEffect;
  eventIds: string[];
}

/**
 * A chargeback on a captured payment: a dispute row (needs_response) carrying the processor's id of
 * the dispute, and `s_payment_disputed`, as `POST /payments/disputes/create` records one. A dispute
 * the engine already holds under that id is not recorded twice (the unique index on
 * (payment, processor reference) holds it against concurrent events with different vendor ids).
 */
export async function openDisputeFromProcessor(
  tx: Tx,
  payment: Payment,
  event: ProcessorEvent,
): Promise<DisputeEventResult> {
  if (payment.amountCaptured === 0) return nothingDone('not_applicable');
  const processorReference = event.operationReference || null;
  if (processorReference) {
    const known = await tx.dispute.findUnique({
      where: { paymentId_processorReference: { paymentId: payment.id, processorReference } },
    });
    if (known) return nothingDone('already_settled');
  }
  const { eventId } = await recordDispute(tx, payment, {
    amount: processorDisputeAmount(payment.amountCaptured, payment.currency, event),
    status: 'needs_response',
    reason: event.reason ?? null,
    processorReference,
  });
  return { effect: 'dispute_opened', eventIds: [eventId] };
}

/**
 * The processor's outcome of a dispute: `won` closes an open one (needs_response, under_review);
 * `lost` closes it whatever it said before, because the processor's loss is final (Adyen sends
 * SECOND_CHARGEBACK after CHARGEBACK_REVERSED when the issuer takes it to pre-arbitration), and a
 * `won` arriving after a loss changes nothing. Each move records `s_payment_dispute_closed`. The
 * move is one conditional UPDATE, so concurrent deliveries of different events move it once.
 */
export async function closeDisputeFromProcessor(
  tx: Tx,
  payment: Payment,
  event: ProcessorEvent,
  outcome: 'won' | 'lost',
): Promise<DisputeEventResult> {
  const dispute = await disputeNamedBy(tx, payment.id, event.operationReference);
  if (!dispute) return nothingDone('not_applicable');
  const moved = await tx.dispute.updateMany({
    where: { id: dispute.id, status: { in: disputeClosableFrom(outcome) } },
    data: { status: outcome },
  });
  if (moved.count !== 1) return nothingDone(dispute.status === outcome ? 'already_settled' : 'not_applicable');
  const eventIds = await recordPaymentEvents(tx, payment, [
    [
      's_payment_dispute_closed',
      {
        paymentId: payment.id,
        disputeId: dispute.id,
        amount: dispute.amount,
        currency: dispute.currency,
        reason: dispute.reason,
        status: outcome,
      },
    ],
  ]);
  return { effect: 'dispute_closed', eventIds };
}

/**
 * The dispute an outcome is about: the one its processor opened under this reference; else, when
 * the payment has exactly one dispute without a processor reference (opened by a capture's answer
 * or by the API), that one. Anything else is ambiguous and left alone.
 */
async function disputeNamedBy(tx: Tx, paymentId: string, processorReference: string | undefined) {
  if (processorReference) {
    const named = await tx.dispute.findUnique({
      where: { paymentId_processorReference: { paymentId, processorReference } },
    });
    if (named) return named;
  }
  const unnamed = await tx.dispute.findMany({ where: { paymentId, processorReference: null }, take: 2 });
  return unnamed.length === 1 ? unnamed[0]! : null;
}

function nothingDone(effect: DisputeEventEffect): DisputeEventResult {
  return { effect, eventIds: [] };
}
