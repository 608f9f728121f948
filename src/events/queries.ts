import type { Db } from '../db/prisma';
import { notFound } from '../errors';
import { toEventViews } from './serialize';
import type { Tenant } from './tenant';

/** The tenant's most recent events, newest first, as the API shows them. */
export async function recentEvents(db: Db, tenant: Tenant, limit: number) {
  const events = await db.event.findMany({
    where: tenant,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  return toEventViews(db, events);
}

/** Every webhook delivery attempt of one of the tenant's events (newest first, at most 500), or not_found. */
export async function deliveryAttemptsOfEvent(db: Db, tenant: Tenant, eventId: string) {
  const event = await db.event.findFirst({ where: { id: eventId, ...tenant }, select: { id: true } });
  if (!event) throw notFound('Event');
  return db.webhookDeliveryAttempt.findMany({
    where: { eventId: event.id },
    orderBy: [{ createdAt: 'desc' }, { attempt: 'desc' }],
    take: 500,
  });
}
