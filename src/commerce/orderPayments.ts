import type { Db } from '../db/prisma';

/** A payment as an order shows it (spec part 2: id, status, amount, currency). */
export interface OrderPayment {
  id: string;
  status: string;
  amount: number;
  currency: string;
  createdAt?: string;
}

export type OrderPaymentsLoader = (db: Db, order: { id: string; paymentId: string | null }) => Promise<OrderPayment[]>;

let registered: OrderPaymentsLoader | undefined;

/**
 * Hook for the payments module, whose `payments` table is not part of the commerce schema: it
 * registers how to load an order's payments. Until it does, `defaultLoader` is used.
 */
export function setOrderPaymentsLoader(loader: OrderPaymentsLoader | undefined): void {
  registered = loader;
}

export function loadOrderPayments(db: Db, order: { id: string; paymentId: string | null }): Promise<OrderPayment[]> {
  return (registered ?? defaultLoader)(db, order);
}

const neededColumns = ['id', 'status', 'amount', 'currency', 'order_id', 'created_at'];
let paymentsTableReady: Promise<boolean> | undefined;

/** True once a `payments` table with the columns the default loader reads exists (checked once). */
function hasPaymentsTable(db: Db): Promise<boolean> {
  paymentsTableReady ??= db.$queryRaw<{ column_name: string }[]>`
      SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'payments'`
    .then((rows) => neededColumns.every((column) => rows.some((row) => row.column_name === column)))
    .then((ready) => {
      if (!ready) paymentsTableReady = undefined; // look again next time: migrations may land later
      return ready;
    });
  return paymentsTableReady;
}

/**
 * Reads `payments` rows whose order_id is the order (or whose id is the order's paymentId),
 * when such a table exists; otherwise no payments.
 */
async function defaultLoader(db: Db, order: { id: string; paymentId: string | null }): Promise<OrderPayment[]> {
  if (!(await hasPaymentsTable(db))) return [];
  const rows = await db.$queryRaw<{ id: string; status: string; amount: number; currency: string; created_at: Date }[]>`
    SELECT "id", "status"::text AS "status", "amount", "currency", "created_at" FROM "payments"
     WHERE "order_id" = ${order.id} OR "id" = ${order.paymentId ?? ''}
     ORDER BY "created_at" ASC, "id" ASC`;
  return rows.map((row) => ({ id: row.id, status: row.status, amount: Number(row.amount), currency: row.currency, createdAt: row.created_at.toISOString() }));
}
