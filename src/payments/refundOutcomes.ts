import type { Db, Prisma } from '../db/prisma';
import type { ProcessorFollowUp } from './followUpTypes';
import { refundedPaymentStatus } from '../domain/paymentAmounts';
import { recordEvent } from '../events/recordEvent';

type Tx = Prisma.TransactionClient;

/**
 * The final state of a refund, written once whoever learns it first: the refund workflow (the
 * processor's answer, or its lookup after a long wait) or the processor-webhook route. Every
 * change is conditional on the refund's current status, under a lock on the payment row, so of
 * two writers (or ten identical webhook deliveries) one changes the rows and the others find them
 * settled.
 */
export type RefundResult =
  { succeeded: true; processorReference: string | null } | { succeeded: false; code: string; message: string | null };

export type RefundEffect = 'settled' | 'reopened' | 'already_settled';

interface PaymentScope {
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  customerId: string | null;
}

export async function recordPaymentEvents(tx: Tx, payment: PaymentScope, events: [string, Record<string, unknown>][]) {
  const ids: string[] = [];
  for (const [eventType, properties] of events) {
    const event = await recordEvent(tx, {
      accountId: payment.accountId,
      mode: payment.mode,
      storeId: payment.storeId,
      customerId: payment.customerId,
      eventType,
      properties,
    });
    ids.push(event.id);
  }
  return ids;
}

/** Locks the payment row: concurrent settlements of its refunds compute its status one at a time. */
export async function lockPayment(tx: Tx, paymentId: string) {
  await tx.$executeRaw`UPDATE "payments" SET "updated_at" = CURRENT_TIMESTAMP WHERE "id" = ${paymentId}`;
  return tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
}

/** What the succeeded refunds add up to, as the payment's and order's status. */
async function refundedStatus(tx: Tx, payment: { id: string; amountCaptured: number }) {
  const refunded = await tx.refund.aggregate({
    where: { paymentId: payment.id, status: 'succeeded' },
    _sum: { amount: true },
  });
  return refundedPaymentStatus(payment.amountCaptured, refunded._sum.amount ?? 0);
}

/**
 * A pending refund becomes succeeded (payment and order refunded in part or whole, events
 * `s_payment_refunded`, `s_order_refunded`) or failed (its reserved amount given back). The
 * caller has locked the payment (`lockPayment`). A refund that is no longer pending is left alone.
 */
export async function settlePendingRefund(tx: Tx, refundId: string, result: RefundResult) {
  const refund = await tx.refund.findUniqueOrThrow({ where: { id: refundId } });
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: refund.paymentId } });
  const unchanged = { effect: 'already_settled' as RefundEffect, paymentStatus: payment.status, eventIds: [] };
  if (!result.succeeded) {
    const failed = await tx.refund.updateMany({
      where: { id: refund.id, status: 'pending' },
      data: { status: 'failed', failureCode: result.code },
    });
    if (failed.count !== 1) return unchanged;
    await tx.$executeRaw`UPDATE "payments" SET "amount_refunded" = "amount_refunded" - ${refund.amount} WHERE "id" = ${payment.id}`;
    return { effect: 'settled' as RefundEffect, paymentStatus: payment.status, eventIds: [] };
  }
  const succeeded = await tx.refund.updateMany({
    where: { id: refund.id, status: 'pending' },
    data: { status: 'succeeded', processorReference: result.processorReference ?? refund.processorReference },
  });
  if (succeeded.count !== 1) return unchanged;
  const status = await refundedStatus(tx, payment);
  await tx.payment.update({ where: { id: payment.id }, data: { status } });
  const amounts = { refundId: refund.id, amount: refund.amount, currency: refund.currency };
  const events: [string, Record<string, unknown>][] = [
    ['s_payment_refunded', { paymentId: payment.id, ...amounts, paymentStatus: status }],
  ];
  if (payment.orderId) {
    await tx.order.updateMany({
      where: { id: payment.orderId, status: { in: ['paid', 'partially_refunded'] } },
      data: { status },
    });
    events.push(['s_order_refunded', { orderId: payment.orderId, paymentId: payment.id, ...amounts, status }]);
  }
  return {
    effect: 'settled' as RefundEffect,
    paymentStatus: status,
    eventIds: await recordPaymentEvents(tx, payment, events),
  };
}

/**
 * A refund the processor had confirmed came back (Adyen REFUND_FAILED / REFUNDED_REVERSED, Stripe
 * refund.failed): it becomes failed with `failureCode`, its amount is refundable again, the
 * payment's (and order's) status follows what the remaining refunds add up to. Event
 * `s_payment_refund_failed`. The caller has locked the payment.
 */
export async function reopenSucceededRefund(tx: Tx, refundId: string, failureCode: string) {
  const refund = await tx.refund.findUniqueOrThrow({ where: { id: refundId } });
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: refund.paymentId } });
  const reopened = await tx.refund.updateMany({
    where: { id: refund.id, status: 'succeeded' },
    data: { status: 'failed', failureCode },
  });
  if (reopened.count !== 1)
    return { effect: 'already_settled' as RefundEffect, paymentStatus: payment.status, eventIds: [] };
  const status = await refundedStatus(tx, payment);
  await tx.$executeRaw`UPDATE "payments" SET "amount_refunded" = "amount_refunded" - ${refund.amount}, "status" = ${status} WHERE "id" = ${payment.id}`;
  if (payment.orderId)
    await tx.order.updateMany({
      where: { id: payment.orderId, status: { in: ['refunded', 'partially_refunded'] } },
      data: { status: status === 'succeeded' ? 'paid' : status },
    });
  const eventIds = await recordPaymentEvents(tx, payment, [
    [
      's_payment_refund_failed',
      {
        paymentId: payment.id,
        refundId: refund.id,
        amount: refund.amount,
        currency: refund.currency,
        paymentStatus: status,
        failureCode,
      },
    ],
  ]);
  return { effect: 'reopened' as RefundEffect, paymentStatus: status, eventIds };
}

/**
 * The processor's answer to a refund, in one transaction with the payment locked: `pending` keeps
 * the refund pending with its amount reserved (the webhook or the workflow's lookup settles it
 * later), otherwise it is settled. Answers the effect and the refund row as it then stands.
 */
export async function recordRefundResult(
  db: Db,
  input: { paymentId: string; refundId: string },
  result: ProcessorFollowUp,
) {
  const settled = await db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, input.paymentId);
    const refund = await tx.refund.findUniqueOrThrow({ where: { id: input.refundId } });
    if (result.outcome === 'pending') {
      // Accepted, not confirmed: the refund stays pending with its amount reserved until the
      // processor confirms or fails it (webhook, or the workflow's lookup after a long wait).
      if (refund.status !== 'pending')
        return { effect: 'already_settled' as const, paymentStatus: payment.status, eventIds: [] };
      await tx.refund.update({ where: { id: refund.id }, data: { processorReference: result.processorReference } });
      return { effect: 'pending' as const, paymentStatus: payment.status, eventIds: [] };
    }
    return settlePendingRefund(
      tx,
      refund.id,
      result.outcome === 'failed'
        ? { succeeded: false, code: result.code, message: result.message }
        : { succeeded: true, processorReference: result.processorReference },
    );
  });
  const refund = await db.refund.findUniqueOrThrow({ where: { id: input.refundId } });
  return { settled, refund };
}
