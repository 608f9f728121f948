import type { Db } from '../db/prisma';
import type { Mode } from '../domain/apiKeys';
import { businessId } from '../payments/startPayment';

/**
 * The order a subscription charge records, derived from its charge key: the charge's payment names
 * it from its first row (so `payment/succeeded` carries it), and the order is written under this id
 * once the charge is paid. A declined charge never gets its order (the payment drops the id).
 */
export function subscriptionOrderId(accountId: string, mode: Mode, chargeKey: string): string {
  return businessId('order', `${accountId}:${mode}`, chargeKey);
}

export interface LatestChargeLinks {
  /** The order of the newest paid charge. */
  latestOrderId: string | null;
  /** The payment of the newest charge attempt, declined or not (a past-due subscription shows its failed one). */
  latestPaymentId: string | null;
}

/** The newest order and payment of each subscription, in two queries for the whole batch. */
export async function latestChargeLinks(db: Db, subscriptionIds: string[]): Promise<Map<string, LatestChargeLinks>> {
  const links = new Map<string, LatestChargeLinks>(
    subscriptionIds.map((id) => [id, { latestOrderId: null, latestPaymentId: null }]),
  );
  if (subscriptionIds.length === 0) return links;
  const [orders, payments] = await Promise.all([
    db.$queryRaw<{ subscription_id: string; id: string }[]>`
      SELECT DISTINCT ON (subscription_id) subscription_id, id FROM orders
      WHERE subscription_id = ANY(${subscriptionIds}::text[])
      ORDER BY subscription_id, created_at DESC, id DESC`,
    db.$queryRaw<{ subscription_id: string; id: string }[]>`
      SELECT DISTINCT ON (subscription_id) subscription_id, id FROM payments
      WHERE subscription_id = ANY(${subscriptionIds}::text[])
      ORDER BY subscription_id, created_at DESC, id DESC`,
  ]);
  for (const row of orders) links.get(row.subscription_id)!.latestOrderId = row.id;
  for (const row of payments) links.get(row.subscription_id)!.latestPaymentId = row.id;
  return links;
}
