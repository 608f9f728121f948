import { Prisma } from '../db/prisma';
import { recordEvent } from '../events/recordEvent';

type Tx = Prisma.TransactionClient;

/**
 * How long an open session stays past its expiry before a redemption may flip it and take its code
 * uses back. A payment claims its session in a short transaction only while the session has not
 * expired; this margin lets such a claim commit first, so a session being paid is never flipped.
 */
export const lapsedSessionGraceMs = 60_000;

/**
 * Open sessions (matching `where`) past `cutoff` that no payment holds. A held claim in
 * `checkout_payment_claims` means a payment is running or has won, and that payment will flip the
 * session to paid even after its expiry; such a session still counts as live.
 */
export async function findLapsedSessionIds(
  tx: Tx,
  where: Prisma.CheckoutSessionWhereInput,
  cutoff: Date,
): Promise<string[]> {
  const overdue = await tx.checkoutSession.findMany({
    where: { ...where, status: 'open', expiresAt: { lte: cutoff } },
    select: { id: true },
  });
  return withoutPaymentHolding(
    tx,
    overdue.map((session) => session.id),
  );
}

async function withoutPaymentHolding(tx: Tx, sessionIds: string[]): Promise<string[]> {
  if (sessionIds.length === 0) return [];
  const held = await tx.checkoutPaymentClaim.findMany({
    where: { checkoutSessionId: { in: sessionIds }, state: 'held' },
    select: { checkoutSessionId: true },
  });
  const heldIds = new Set(held.map((claim) => claim.checkoutSessionId));
  return sessionIds.filter((id) => !heldIds.has(id));
}

/**
 * Flips lapsed sessions holding any of `promotionCodeIds` to expired and returns how many uses
 * each code gets back (the caller applies them while it holds the code rows, in id order).
 * Rows another transaction has locked are skipped rather than waited for (SKIP LOCKED): that
 * transaction is expiring, paying or sweeping them itself, and a checkout should not queue behind
 * it (so a redeemer racing a sweep may still get 409 while those uses come back; the limit itself
 * is never exceeded). The conditional `status = 'open'` flips each session, and counts its uses,
 * exactly once.
 */
export async function expireLapsedSessionsHolding(
  tx: Tx,
  promotionCodeIds: string[],
  now = new Date(),
): Promise<Map<string, number>> {
  const released = new Map<string, number>();
  if (promotionCodeIds.length === 0) return released;
  const cutoff = new Date(now.getTime() - lapsedSessionGraceMs);
  // Driven from the code's redemptions (indexed by code), not from the sessions table.
  const overdue = await tx.promotionRedemption.findMany({
    where: {
      promotionCodeId: { in: promotionCodeIds },
      checkoutSession: { status: 'open', expiresAt: { lte: cutoff } },
    },
    select: { checkoutSessionId: true },
  });
  const flipped = await flipLapsedSessions(tx, [...new Set(overdue.map((row) => row.checkoutSessionId))], cutoff);
  if (flipped.length === 0) return released;
  const uses = await tx.promotionRedemption.groupBy({
    by: ['promotionCodeId'],
    where: { checkoutSessionId: { in: flipped.map((row) => row.id) } },
    _count: { _all: true },
  });
  for (const use of uses) released.set(use.promotionCodeId, use._count._all);
  return released;
}

/**
 * Moves those of `sessionIds` that are still open, expired at or before `cutoff` and held by no
 * payment to expired, recording `s_checkout_session_expired` (`lapsed`) for each, and returns
 * them with their event ids. Rows another transaction has locked are skipped rather than waited for (SKIP LOCKED), in
 * id order; the conditional `status = 'open'` flips each session exactly once.
 */
export async function flipLapsedSessions(
  tx: Tx,
  sessionIds: string[],
  cutoff: Date,
): Promise<(ExpiredSessionRow & { eventId: string })[]> {
  if (sessionIds.length === 0) return [];
  const flipped = await tx.$queryRaw<ExpiredSessionRow[]>`
    WITH "locked" AS (
      SELECT "id" FROM "checkout_sessions"
       WHERE "id" IN (${Prisma.join(sessionIds)}) AND "status" = 'open' AND "expires_at" <= ${cutoff}
         AND NOT EXISTS (SELECT 1 FROM "checkout_payment_claims" c WHERE c."checkout_session_id" = "checkout_sessions"."id" AND c."state" = 'held')
       ORDER BY "id" FOR UPDATE SKIP LOCKED
    )
    UPDATE "checkout_sessions" AS "s" SET "status" = 'expired', "updated_at" = CURRENT_TIMESTAMP
      FROM "locked" WHERE "s"."id" = "locked"."id"
    RETURNING "s"."id", "s"."account_id" AS "accountId", "s"."mode"::text AS "mode", "s"."store_id" AS "storeId",
              "s"."customer_id" AS "customerId", "s"."total", "s"."currency"`;
  const expired = [];
  for (const session of flipped)
    expired.push({ ...session, eventId: (await recordSessionExpired(tx, session, 'lapsed')).id });
  return expired;
}

/** What the `s_checkout_session_expired` event needs of a session. */
export interface ExpiredSessionRow {
  id: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  customerId: string | null;
  total: number;
  currency: string;
}

/**
 * The event of a session's move to expired, in the transaction that moved it: `requested` by
 * POST /checkout-sessions/expire, or `lapsed` when its expiry passed unpaid.
 */
export async function recordSessionExpired(
  tx: Tx,
  session: ExpiredSessionRow,
  reason: 'requested' | 'lapsed',
): Promise<{ id: string }> {
  return recordEvent(tx, {
    accountId: session.accountId,
    mode: session.mode,
    storeId: session.storeId,
    customerId: session.customerId,
    eventType: 's_checkout_session_expired',
    properties: { checkoutSessionId: session.id, amount: session.total, currency: session.currency, reason },
  });
}
