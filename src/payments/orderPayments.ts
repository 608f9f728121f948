import type { Db } from '../db/prisma';

/** A payment as an order shows it (id, status, amount, currency). */
export interface OrderPayment {
  id: string;
  status: string;
  amount: number;
  currency: string;
  createdAt: string;
}

/** The payments that paid (or tried to pay) an order, oldest first. */
export async function paymentsOfOrder(
  db: Db,
  order: { id: string; paymentId: string | null },
): Promise<OrderPayment[]> {
  const rows = await db.payment.findMany({
    where: { OR: [{ orderId: order.id }, ...(order.paymentId ? [{ id: order.paymentId }] : [])] },
    select: { id: true, status: true, amount: true, currency: true, createdAt: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    createdAt: row.createdAt.toISOString(),
  }));
}
