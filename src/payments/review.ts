import type { Db } from '../db/prisma';
import { conflict, notFound } from '../errors';
import { recordPaymentEvents } from './refundOutcomes';

/**
 * Payments needing review: failed while a processor may still hold a charge (the reversal of an
 * unanswered attempt was never confirmed). The payment row says `failed` and carries
 * `metadata.review` ({reason, processorId, idempotencyKey}, written by finalizePayment); the
 * workflow's PaymentStatus search attribute says `needs_review`. An operator settles it once:
 * `metadata.review.resolution` then records the outcome and the payment leaves the list.
 */
export type ReviewOutcome = 'charged' | 'not_charged';
export const reviewOutcomes: readonly ReviewOutcome[] = ['charged', 'not_charged'];

interface ReviewRecord {
  reason: string;
  processorId: string;
  idempotencyKey: string;
  resolution?: { outcome: ReviewOutcome; note: string | null; resolvedAt: string };
}

/** The review record of a payment known to have one (the queries below select only those). */
const reviewOf = (metadata: unknown) => (metadata as { review: ReviewRecord }).review;

// The one definition of "in review" both the list and the settling UPDATE use.
const inReviewSql = `status = 'failed' AND metadata ? 'review' AND NOT (metadata -> 'review' ? 'resolution')`;

/** Oldest first: the longest-standing possible charge is the first to settle. */
export async function listPaymentsNeedingReview(db: Db) {
  const ids = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM payments WHERE ${inReviewSql} ORDER BY created_at ASC, id ASC`,
  );
  const rows = await db.payment.findMany({
    where: { id: { in: ids.map((row) => row.id) } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((payment) => ({
    paymentId: payment.id,
    accountId: payment.accountId,
    mode: payment.mode,
    storeId: payment.storeId,
    customerId: payment.customerId,
    orderId: payment.orderId,
    amount: payment.amount,
    currency: payment.currency,
    intent: payment.intent,
    declineCode: payment.declineCode,
    review: reviewOf(payment.metadata),
    createdAt: payment.createdAt.toISOString(),
  }));
}

/**
 * Settles a payment in review, exactly once however many operators run it at the same time: the
 * UPDATE only matches while the payment is still in review, so of concurrent resolves one changes
 * the row and the others find it settled (conflict `PAYMENT_NOT_IN_REVIEW`).
 * - charged: the processor holds the money. A purchase becomes `succeeded` (captured), an
 *   authorisation `authorized`; the processor is the one in the review, the decline is cleared.
 *   Events `s_payment_review_resolved` and `s_payment_succeeded`.
 * - not_charged: nothing stands at the processor; the payment stays `failed`. Event
 *   `s_payment_review_resolved`.
 * Events are recorded in the same transaction; the outbox sweep delivers them (within ~30 s).
 */
export async function resolvePaymentReview(
  db: Db,
  input: { paymentId: string; outcome: ReviewOutcome; note?: string | null },
) {
  return db.$transaction(
    async (tx) => {
      const resolvedAt = new Date();
      const charged = input.outcome === 'charged';
      const note = input.note?.trim() || (charged ? 'settled by an operator: the processor charged' : null);
      const updated = await tx.$executeRawUnsafe(
        `UPDATE payments SET
         status = CASE WHEN NOT $2 THEN status WHEN intent = 'auth' THEN 'authorized' ELSE 'succeeded' END,
         amount_captured = CASE WHEN $2 AND intent <> 'auth' THEN amount ELSE amount_captured END,
         captured_at = CASE WHEN $2 AND intent <> 'auth' THEN $3 ELSE captured_at END,
         processor_id = CASE WHEN $2 THEN metadata -> 'review' ->> 'processorId' ELSE processor_id END,
         decline_code = CASE WHEN $2 THEN NULL ELSE decline_code END,
         decline_category = CASE WHEN $2 THEN NULL ELSE decline_category END,
         decline_message = CASE WHEN $2 THEN NULL ELSE decline_message END,
         metadata = jsonb_set(metadata, '{review,resolution}',
           jsonb_build_object('outcome', $4::text, 'note', $5::text, 'resolvedAt', $6::text)),
         updated_at = $3
       WHERE id = $1 AND ${inReviewSql}`,
        input.paymentId,
        charged,
        resolvedAt,
        input.outcome,
        note,
        resolvedAt.toISOString(),
      );
      const payment = await tx.payment.findUnique({ where: { id: input.paymentId } });
      if (!payment) throw notFound('Payment');
      if (updated !== 1) {
        throw conflict(`Payment ${payment.id} is not in review (status ${payment.status})`, 'PAYMENT_NOT_IN_REVIEW');
      }
      const review = reviewOf(payment.metadata);
      const base = {
        paymentId: payment.id,
        orderId: payment.orderId,
        amount: payment.amount,
        currency: payment.currency,
        status: payment.status,
      };
      const events: [string, Record<string, unknown>][] = [
        [
          's_payment_review_resolved',
          {
            ...base,
            outcome: input.outcome,
            processorId: review.processorId,
            idempotencyKey: review.idempotencyKey,
            note,
          },
        ],
      ];
      if (charged)
        events.push([
          's_payment_succeeded',
          { ...base, processorId: payment.processorId, captured: payment.intent !== 'auth' },
        ]);
      const eventIds = await recordPaymentEvents(tx, payment, events);
      return {
        paymentId: payment.id,
        outcome: input.outcome,
        status: payment.status,
        processorId: payment.processorId,
        amountCaptured: payment.amountCaptured,
        note,
        resolvedAt: review.resolution!.resolvedAt,
        eventIds,
      };
    },
    // Concurrent resolutions of one payment queue on its row lock inside their transactions: Prisma's
    // 5 s default expired one of ten CLI runs on a loaded machine (it must answer "not in review").
    { maxWait: 15_000, timeout: 30_000 },
  );
}
