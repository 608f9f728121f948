import { memoryLimitDefaults } from '../config';
import { newId } from '../domain/ids';
import { RecentList } from '../domain/recentList';
import type { Db, Prisma } from '../db/prisma';
import { isEventRecordType } from '../webhooks/catalogue';
import { eventShapeProblem } from './payloads';

/** An event recorded with properties off its declared shape (src/events/payloads.ts). */
export interface EventShapeViolation {
  eventType: string;
  problem: string;
}

/** The newest RECORDED_VIOLATIONS_MAX only: in production nobody takes them. */
export const recordedEventShapeViolations = new RecentList<EventShapeViolation>(
  memoryLimitDefaults.RECORDED_VIOLATIONS_MAX,
);

/** Shape violations since the last call: tests fail on them (test/helpers/contractChecks.ts). */
export function takeEventShapeViolations(): EventShapeViolation[] {
  return recordedEventShapeViolations.take();
}

export interface RecordEventInput {
  accountId: string;
  mode: 'test' | 'live';
  storeId?: string | null;
  customerId?: string | null;
  /** A record type of the catalogue (`s_order_paid`, …), see src/webhooks/catalogue.ts. */
  eventType: string;
  properties: Record<string, unknown>;
}

/**
 * Writes one event (evt_) with the caller's client: pass the transaction of the state change so
 * the change and its event commit or roll back together. Delivery starts after commit: call
 * `dispatchEvents` (activity) or `dispatchEventsNow`; the outbox sweep catches any event whose
 * dispatch was lost to a crash.
 */
export async function recordEvent(tx: Prisma.TransactionClient | Db, input: RecordEventInput): Promise<{ id: string }> {
  const id = newId('event');
  await tx.event.create({ data: eventRow(id, input) });
  return { id };
}

/**
 * Several events of one state change in one INSERT, in the given order: each gets a created_at
 * 1 ms after the one before, so lists and the outbox (ordered by created_at, id) keep that order.
 * `processed`: no endpoint subscribes to it (see subscribedAmong), nothing is left to dispatch.
 */
export async function recordEvents(
  tx: Prisma.TransactionClient | Db,
  inputs: (RecordEventInput & { processed?: boolean })[],
): Promise<string[]> {
  if (inputs.length === 0) return [];
  const now = Date.now();
  const rows = inputs.map((input, index) => ({
    ...eventRow(newId('event'), input),
    createdAt: new Date(now + index),
    processedAt: input.processed ? new Date(now) : null,
  }));
  await tx.event.createMany({ data: rows });
  return rows.map((row) => row.id);
}

function eventRow(id: string, input: RecordEventInput) {
  if (!isEventRecordType(input.eventType)) {
    throw new Error(`unknown event type ${input.eventType}; add it to src/webhooks/catalogue.ts`);
  }
  noteEventShape(input.eventType, input.properties);
  return {
    id,
    accountId: input.accountId,
    mode: input.mode,
    storeId: input.storeId ?? null,
    customerId: input.customerId ?? null,
    eventType: input.eventType,
    properties: input.properties as Prisma.InputJsonObject,
  };
}

/**
 * Noted, never thrown: a payload that drifted from its documented shape must not stop the payment
 * or renewal whose transaction records it. Test runs turn it into a failure. Events written by SQL
 * of their own (src/payments/finalize/paidCheckoutStatement.ts) are checked with this after the write.
 */
export function noteEventShape(eventType: string, properties: unknown): void {
  if (!isEventRecordType(eventType)) {
    recordedEventShapeViolations.push({ eventType, problem: 'not a record type of the catalogue' });
    return;
  }
  const problem = eventShapeProblem(eventType, properties);
  if (problem) recordedEventShapeViolations.push({ eventType, problem });
}
