import type { Db } from '../db/prisma';
import type { Event } from '../generated/prisma/client';

/** An event as the API and webhook payloads show it. */
export interface EventView {
  id: string;
  accountId: string;
  storeId: string | null;
  customerId: string | null;
  eventType: string;
  properties: Record<string, unknown>;
  draft: boolean;
  processedAt: string | null;
  createdAt: string;
  customer: { id: string; email: string; firstName: string | null; lastName: string | null } | null;
  store: { id: string; name: string } | null;
}

/** Serialises events with their customer and store, loaded in two queries for the whole batch. */
export async function toEventViews(db: Db, events: Event[]): Promise<EventView[]> {
  const storeIds = [...new Set(events.flatMap((event) => (event.storeId ? [event.storeId] : [])))];
  const customerIds = [...new Set(events.flatMap((event) => (event.customerId ? [event.customerId] : [])))];
  const [stores, customers] = await Promise.all([
    storeIds.length ? db.store.findMany({ where: { id: { in: storeIds } }, select: { id: true, name: true } }) : [],
    customerIds.length
      ? db.customer.findMany({
          where: { id: { in: customerIds } },
          select: { id: true, email: true, firstName: true, lastName: true },
        })
      : [],
  ]);
  const storeById = new Map(stores.map((store) => [store.id, store]));
  const customerById = new Map(customers.map((customer) => [customer.id, customer]));
  return events.map((event) => ({
    id: event.id,
    accountId: event.accountId,
    storeId: event.storeId,
    customerId: event.customerId,
    eventType: event.eventType,
    properties: (event.properties ?? {}) as Record<string, unknown>,
    draft: event.draft,
    processedAt: event.processedAt?.toISOString() ?? null,
    createdAt: event.createdAt.toISOString(),
    customer: (event.customerId && customerById.get(event.customerId)) || null,
    store: (event.storeId && storeById.get(event.storeId)) || null,
  }));
}
