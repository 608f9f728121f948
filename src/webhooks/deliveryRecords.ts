import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import { recordEvent } from '../events/recordEvent';
import { toEventViews } from '../events/serialize';
import { failingTooLong } from './failureStreak';

/* The database side of one webhook delivery attempt: what to send, what happened, an endpoint given up on. */

type Endpoint = NonNullable<Awaited<ReturnType<Db['webhookEndpoint']['findUnique']>>>;

/** The endpoint, the event and its public view; `missing` when the endpoint is gone or disabled, or the event is gone. */
export async function loadDelivery(db: Db, input: { eventId: string; endpointId: string }) {
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: input.endpointId } });
  if (!endpoint || !endpoint.enabled) return { missing: 'endpoint' as const };
  const event = await db.event.findUnique({ where: { id: input.eventId } });
  if (!event) return { missing: 'event' as const };
  const [view] = await toEventViews(db, [event]);
  return { endpoint, event, view: view! };
}

export interface AttemptRecord {
  eventId: string;
  workflowId: string;
  attempt: number;
  delivered: boolean;
  result: { status?: number; latencyMs: number; error?: string; snippet?: string };
  /** When the attempt was scheduled: the failure streak is measured on this clock. */
  at: Date;
  /** The streak this failure belongs to (null: delivered, the streak ends). */
  streak: { since: Date; restarted: boolean } | null;
}

/** The attempt's row and the endpoint's failure streak, in one transaction. */
export async function recordDeliveryAttempt(db: Db, endpoint: Endpoint, record: AttemptRecord): Promise<void> {
  const { result, streak, at } = record;
  await db.$transaction([
    db.webhookDeliveryAttempt.create({
      data: {
        id: newId('webhookDelivery'),
        accountId: endpoint.accountId,
        mode: endpoint.mode,
        eventId: record.eventId,
        endpointId: endpoint.id,
        workflowId: record.workflowId,
        attempt: record.attempt,
        outcome: record.delivered ? 'succeeded' : 'failed',
        responseStatus: result.status ?? null,
        latencyMs: result.latencyMs,
        error: result.error ?? (record.delivered ? null : `HTTP ${result.status}`),
        responseSnippet: result.snippet || null,
      },
    }),
    !streak
      ? db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null, lastFailedAt: null } })
      : streak.restarted
        ? db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: at, lastFailedAt: at } })
        : // Concurrent deliveries finish out of order: the latest failure only moves forward.
          db.webhookEndpoint.updateMany({
            where: { id: endpoint.id, OR: [{ lastFailedAt: null }, { lastFailedAt: { lt: at } }] },
            data: { lastFailedAt: at },
          }),
  ]);
}

/**
 * Disables an endpoint that answered 410 or failed for 3 days straight (as of `now`), and records
 * `s_webhook_endpoint_disabled` in the same transaction. When another event reached the endpoint
 * meanwhile, the streak is shorter and it stays enabled.
 */
export async function disableEndpoint(
  db: Db,
  input: { endpointId: string; eventId: string; reason: 'gone' | 'failing' },
  now: Date,
): Promise<{ disabled: boolean; eventId?: string }> {
  return db.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: input.endpointId } });
    if (!endpoint || !endpoint.enabled) return { disabled: false };
    if (input.reason === 'failing' && !failingTooLong(endpoint, now)) return { disabled: false };
    const disabledReason = input.reason === 'gone' ? 'receiver answered 410 Gone' : 'every delivery failed for 3 days';
    await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { enabled: false, disabledReason, disabledAt: new Date() },
    });
    const event = await recordEvent(tx, {
      accountId: endpoint.accountId,
      mode: endpoint.mode,
      storeId: endpoint.storeId,
      eventType: 's_webhook_endpoint_disabled',
      properties: {
        endpointId: endpoint.id,
        url: endpoint.url,
        reason: input.reason,
        detail: disabledReason,
        lastEventId: input.eventId,
      },
    });
    return { disabled: true, eventId: event.id };
  });
}
