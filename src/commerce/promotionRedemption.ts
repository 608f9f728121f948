import type { Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import type { TotalsPromotion } from '../domain/checkoutTotals';
import { conflict, invalid } from '../errors';
import { expireLapsedSessionsHolding, findLapsedSessionIds } from './lapsedSessions';
import type { Scope } from './scope';

type Tx = Prisma.TransactionClient;

/** The one lock order of promotion code rows: ids by UTF-16 code units. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byPromotionCodeId = (a: { promotionCodeId: string }, b: { promotionCodeId: string }) =>
  byCodeUnits(a.promotionCodeId, b.promotionCodeId);

export interface ResolvedCode {
  id: string;
  code: string;
  firstTimeCustomersOnly: boolean;
  usageLimit: number | null;
  promotion: TotalsPromotion;
}

/** Looks codes up (case-insensitive) and checks they are usable on this store; invalid otherwise. */
export async function resolvePromotionCodes(
  tx: Tx,
  scope: Scope,
  storeId: string,
  codes: string[],
): Promise<ResolvedCode[]> {
  const wanted = [...new Set(codes.map((code) => code.toUpperCase()))];
  if (wanted.length === 0) return [];
  const rows = await tx.promotionCode.findMany({
    where: { ...scope, code: { in: wanted } },
    include: { promotion: true },
  });
  return wanted.map((code) => {
    const row = rows.find((candidate) => candidate.code === code);
    if (!row || row.promotion.storeId !== storeId)
      throw invalid(`Promotion code ${code} does not exist for this store`, 'PROMOTION_CODE_INVALID');
    if (!row.active || !row.promotion.active)
      throw invalid(`Promotion code ${code} is not active`, 'PROMOTION_CODE_INACTIVE');
    const { promotion } = row;
    const totals: TotalsPromotion =
      promotion.discountType === 'percentage'
        ? { discountType: 'percentage', percentBasisPoints: promotion.percentBasisPoints! }
        : { discountType: 'fixed_amount', amountOff: promotion.amountOff!, currency: promotion.currency! };
    return {
      id: row.id,
      code: row.code,
      firstTimeCustomersOnly: row.firstTimeCustomersOnly,
      usageLimit: row.usageLimit,
      promotion: totals,
    };
  });
}

/**
 * First-time-only codes: the customer must have no order and no other live first-time redemption
 * (a session that is expired, or open past its expiry with no payment holding it, is not live).
 * Call it before writing anything that references the customer: it takes the customer row lock
 * (FOR NO KEY UPDATE, which does not block the foreign-key share locks of other inserts), so two
 * sessions of one customer are checked one after the other and cannot both pass.
 */
export async function assertFirstTimeEligible(tx: Tx, customerId: string, codes: ResolvedCode[]): Promise<void> {
  const firstTimeCode = codes.find((code) => code.firstTimeCustomersOnly);
  if (!firstTimeCode) return;
  await tx.$queryRaw`SELECT "id" FROM "customers" WHERE "id" = ${customerId} FOR NO KEY UPDATE`;
  const holding: Prisma.CheckoutSessionWhereInput = {
    customerId,
    status: { not: 'expired' },
    redemptions: { some: { firstTimeCustomersOnly: true } },
  };
  const [orders, sessionsHolding, lapsed] = await Promise.all([
    tx.order.count({ where: { customerId } }),
    tx.checkoutSession.count({ where: holding }),
    findLapsedSessionIds(tx, holding, new Date()),
  ]);
  if (orders > 0 || sessionsHolding - lapsed.length > 0) {
    throw invalid(
      `Promotion code ${firstTimeCode.code} is for first-time customers only`,
      'PROMOTION_CODE_FIRST_TIME_ONLY',
    );
  }
}

/**
 * Redeems codes for a session inside the caller's transaction. The usage limit holds under
 * concurrency because the counter only moves through one conditional UPDATE (the row lock
 * serialises concurrent redeemers; the loser sees the new count and matches no row).
 *
 * Uses held by lapsed sessions of a limited code come back first (see lapsedSessions.ts), so a cart
 * nobody expired explicitly does not keep a code used up. Every counter this touches, ours and
 * those of other codes on the flipped sessions, moves in one pass in code id order, so two
 * redeemers never wait on each other's code rows in opposite orders.
 */
export async function redeemPromotionCodes(
  tx: Tx,
  input: { checkoutSessionId: string; customerId: string; codes: ResolvedCode[] },
): Promise<void> {
  const limited = input.codes.filter((code) => code.usageLimit !== null).map((code) => code.id);
  const released = await expireLapsedSessionsHolding(tx, limited);
  const redeeming = new Map(input.codes.map((code) => [code.id, code]));
  const touched = [...new Set([...redeeming.keys(), ...released.keys()])].sort(byCodeUnits);
  for (const codeId of touched) {
    const giveBack = released.get(codeId) ?? 0;
    const code = redeeming.get(codeId);
    if (!code) {
      await tx.$executeRaw`
        UPDATE "promotion_codes" SET "times_redeemed" = GREATEST("times_redeemed" - ${giveBack}, 0), "updated_at" = CURRENT_TIMESTAMP
         WHERE "id" = ${codeId}`;
      continue;
    }
    const updated = await tx.$executeRaw`
      UPDATE "promotion_codes"
         SET "times_redeemed" = GREATEST("times_redeemed" - ${giveBack}, 0) + 1, "updated_at" = CURRENT_TIMESTAMP
       WHERE "id" = ${code.id} AND "active" = true
         AND ("usage_limit" IS NULL OR GREATEST("times_redeemed" - ${giveBack}, 0) < "usage_limit")`;
    if (updated !== 1)
      throw conflict(`Promotion code ${code.code} has reached its usage limit`, 'PROMOTION_CODE_LIMIT_REACHED');
    await tx.promotionRedemption.create({
      data: {
        id: newId('promotionRedemption'),
        promotionCodeId: code.id,
        checkoutSessionId: input.checkoutSessionId,
        customerId: input.customerId,
        firstTimeCustomersOnly: code.firstTimeCustomersOnly,
      },
    });
  }
}

/** Gives an unpaid session's redemptions back (on expiry), so abandoned carts do not use up codes. */
export async function releasePromotionCodes(tx: Tx, checkoutSessionId: string): Promise<void> {
  // In code id order (sorted here, not by the database collation), like redeemPromotionCodes, so
  // the two never lock code rows in opposite orders.
  const redemptions = await tx.promotionRedemption.findMany({ where: { checkoutSessionId } });
  for (const redemption of redemptions.sort(byPromotionCodeId)) {
    await tx.$executeRaw`
      UPDATE "promotion_codes" SET "times_redeemed" = GREATEST("times_redeemed" - 1, 0), "updated_at" = CURRENT_TIMESTAMP
       WHERE "id" = ${redemption.promotionCodeId}`;
  }
}
