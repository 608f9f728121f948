import type { Db } from '../db/prisma';
import { flipLapsedSessions, lapsedSessionGraceMs } from './lapsedSessions';
import { releasePromotionCodes } from './promotionRedemption';

/**
 * Moves open checkout sessions whose expiry passed (by more than the grace a paying claim needs)
 * to expired, each in its own transaction with its code uses given back and its event recorded.
 * A session a payment holds, or another transaction has locked, is left alone. Returns the ids
 * of the events written (the caller dispatches them).
 */
export async function expireLapsedCheckoutSessions(db: Db, now: Date, batchSize = 200): Promise<string[]> {
  const cutoff = new Date(now.getTime() - lapsedSessionGraceMs);
  const candidates = await db.checkoutSession.findMany({
    where: { status: 'open', expiresAt: { lte: cutoff } },
    orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
    take: batchSize,
    select: { id: true },
  });
  const eventIds: string[] = [];
  for (const { id: sessionId } of candidates) {
    const eventId = await db.$transaction(async (tx) => {
      const [session] = await flipLapsedSessions(tx, [sessionId], cutoff);
      if (!session) return null;
      await releasePromotionCodes(tx, session.id);
      return session.eventId;
    });
    if (eventId) eventIds.push(eventId);
  }
  return eventIds;
}
