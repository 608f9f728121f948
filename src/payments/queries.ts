import type { Db, Prisma } from '../db/prisma';
import { readPage, scopedPageArgs, type PageQuery } from '../db/pageQuery';
import type { Scope } from '../commerce/scope';
import { orNotFound } from '../errors';

/** One page of the caller's payments and how many match in all. */
export async function listPayments(db: Db, scope: Scope, page: PageQuery) {
  const args = scopedPageArgs<Prisma.PaymentFindManyArgs>(scope, page);
  return readPage(db.payment.findMany(args), db.payment.count({ where: args.where }));
}

/**
 * A payment of the caller with its attempts, refunds and disputes in order, or not_found.
 * `storeIds` limits it to those stores (a processing key's).
 */
export async function findPaymentDetail(db: Db, scope: Scope, paymentId: string, storeIds?: string[]) {
  return orNotFound(
    await db.payment.findFirst({
      where: { id: paymentId, ...scope, ...(storeIds ? { storeId: { in: storeIds } } : {}) },
      include: {
        attempts: { orderBy: { attemptNumber: 'asc' } },
        refunds: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
        disputes: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
      },
    }),
    'Payment',
  );
}

/** What a follow-up (capture, void, refund) needs of the caller's payment, or not_found. */
export async function findOwnedPayment(db: Db, scope: Scope, paymentId: string) {
  return orNotFound(
    await db.payment.findFirst({
      where: { id: paymentId, ...scope },
      select: { id: true, accountId: true, storeId: true, customerId: true },
    }),
    'Payment',
  );
}

/**
 * The payment a capture request names in a store: by id, or the latest authorized payment of an
 * order; not_found otherwise.
 */
export async function findPaymentToCapture(
  db: Db,
  scope: Scope,
  target: { storeId: string; paymentId?: string; orderId?: string },
) {
  return orNotFound(
    await db.payment.findFirst({
      where: {
        ...scope,
        storeId: target.storeId,
        ...(target.paymentId ? { id: target.paymentId } : { orderId: target.orderId, status: 'authorized' }),
      },
      orderBy: { createdAt: 'desc' },
    }),
    'Authorized payment',
  );
}

/** The payment row as it stands now (after a follow-up wrote it); it must exist. */
export function readPayment(db: Db, scope: Scope, paymentId: string) {
  return db.payment.findFirstOrThrow({ where: { id: paymentId, ...scope } });
}

/** A refund a refund workflow recorded; it must exist. */
export function readRefund(db: Db, refundId: string) {
  return db.refund.findUniqueOrThrow({ where: { id: refundId } });
}

/** A refund of one of the caller's payments (the payment carries the account and mode), or not_found. */
export async function findRefund(db: Db, scope: Scope, refundId: string) {
  return orNotFound(
    await db.refund.findFirst({
      where: { id: refundId, payment: scope },
      include: { payment: { select: { id: true, status: true, amount: true, currency: true } } },
    }),
    'Refund',
  );
}

/** A payment's intent (purchase, auth, capture), by id. */
export async function paymentIntentOf(db: Db, paymentId: string): Promise<string> {
  const payment = await db.payment.findUniqueOrThrow({ where: { id: paymentId }, select: { intent: true } });
  return payment.intent;
}
