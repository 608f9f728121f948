import { newId } from '../domain/ids';
import type { Db, Prisma } from '../db/prisma';
import { isEventRecordType } from '../webhooks/catalogue';

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
  if (!isEventRecordType(input.eventType)) {
    throw new Error(`unknown event type ${input.eventType}; add it to src/webhooks/catalogue.ts`);
  }
  const id = newId('event');
  await tx.event.create({
    data: {
      id,
      accountId: input.accountId,
      mode: input.mode,
      storeId: input.storeId ?? null,
      customerId: input.customerId ?? null,
      eventType: input.eventType,
      properties: input.properties as Prisma.InputJsonObject,
    },
  });
  return { id };
}
