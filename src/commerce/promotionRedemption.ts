import type { Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import type { TotalsPromotion } from '../domain/checkoutTotals';
import { badRequest, conflict } from '../http/core/errors';
import type { Scope } from './scope';

type Tx = Prisma.TransactionClient;

export interface ResolvedCode {
  id: string;
  code: string;
  firstTimeCustomersOnly: boolean;
  promotion: TotalsPromotion;
}

/** Looks codes up (case-insensitive) and checks they are usable on this store; 400 otherwise. */
export async function resolvePromotionCodes(tx: Tx, scope: Scope, storeId: string, codes: string[]): Promise<ResolvedCode[]> {
  const wanted = [...new Set(codes.map((code) => code.toUpperCase()))];
  if (wanted.length === 0) return [];
  const rows = await tx.promotionCode.findMany({ where: { ...scope, code: { in: wanted } }, include: { promotion: true } });
  return wanted.map((code) => {
    const row = rows.find((candidate) => candidate.code === code);
    if (!row || row.promotion.storeId !== storeId) throw badRequest(`Promotion code ${code} does not exist for this store`, 'PROMOTION_CODE_INVALID');
    if (!row.active || !row.promotion.active) throw badRequest(`Promotion code ${code} is not active`, 'PROMOTION_CODE_INACTIVE');
    const { promotion } = row;
    const totals: TotalsPromotion =
      promotion.discountType === 'percentage'
        ? { discountType: 'percentage', percentBasisPoints: promotion.percentBasisPoints! }
        : { discountType: 'fixed_amount', amountOff: promotion.amountOff!, currency: promotion.currency! };
    return { id: row.id, code: row.code, firstTimeCustomersOnly: row.firstTimeCustomersOnly, promotion: totals };
  });
}

/**
 * First-time-only codes: the customer must have no order and no other live first-time redemption.
 * Call it before writing anything that references the customer: it takes the customer row lock
 * (FOR NO KEY UPDATE, which does not block the foreign-key share locks of other inserts), so two
 * sessions of one customer are checked one after the other and cannot both pass.
 */
export async function assertFirstTimeEligible(tx: Tx, customerId: string, codes: ResolvedCode[]): Promise<void> {
  const firstTimeCode = codes.find((code) => code.firstTimeCustomersOnly);
  if (!firstTimeCode) return;
  await tx.$queryRaw`SELECT "id" FROM "customers" WHERE "id" = ${customerId} FOR NO KEY UPDATE`;
  const [orders, firstTimeRedemptions] = await Promise.all([
    tx.order.count({ where: { customerId } }),
    tx.promotionRedemption.count({ where: { customerId, firstTimeCustomersOnly: true, checkoutSession: { status: { not: 'expired' } } } }),
  ]);
  if (orders > 0 || firstTimeRedemptions > 0) {
    throw badRequest(`Promotion code ${firstTimeCode.code} is for first-time customers only`, 'PROMOTION_CODE_FIRST_TIME_ONLY');
  }
}

/**
 * Redeems codes for a session inside the caller's transaction. The usage limit holds under
 * concurrency because the counter only moves through one conditional UPDATE (the row lock
 * serialises concurrent redeemers; the loser sees the new count and matches no row).
 */
export async function redeemPromotionCodes(tx: Tx, input: { checkoutSessionId: string; customerId: string; codes: ResolvedCode[] }): Promise<void> {
  // Always in id order, so two sessions redeeming the same codes never deadlock.
  for (const code of [...input.codes].sort((a, b) => a.id.localeCompare(b.id))) {
    const updated = await tx.$executeRaw`
      UPDATE "promotion_codes"
         SET "times_redeemed" = "times_redeemed" + 1, "updated_at" = CURRENT_TIMESTAMP
       WHERE "id" = ${code.id} AND "active" = true
         AND ("usage_limit" IS NULL OR "times_redeemed" < "usage_limit")`;
    if (updated !== 1) throw conflict(`Promotion code ${code.code} has reached its usage limit`, 'PROMOTION_CODE_LIMIT_REACHED');
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
  const redemptions = await tx.promotionRedemption.findMany({ where: { checkoutSessionId } });
  for (const redemption of redemptions) {
    await tx.$executeRaw`
      UPDATE "promotion_codes" SET "times_redeemed" = GREATEST("times_redeemed" - 1, 0), "updated_at" = CURRENT_TIMESTAMP
       WHERE "id" = ${redemption.promotionCodeId}`;
  }
}
