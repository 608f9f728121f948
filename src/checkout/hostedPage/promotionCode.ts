import type { Db } from '../../db/prisma';
import { computeCheckoutTotals, TotalsError, type TotalsPromotion } from '../../domain/checkoutTotals';
import { conflict, invalid, notFound } from '../../errors';
import {
  assertFirstTimeEligible,
  redeemPromotionCodes,
  resolvePromotionCodes,
} from '../../commerce/promotionRedemption';

// Shoppers applying one hot code queue on its row lock, as session creation does.
const transactionOptions = { maxWait: 15_000, timeout: 15_000 };

/**
 * The shopper adds a promotion code on the hosted page: the session row is locked, the session must
 * be open, unexpired and not being paid (a held payment claim charges the old total), the code is
 * checked as at session creation and redeemed once (its usage counter moves only here, under the
 * same conditional UPDATE), and the totals are recomputed with the session's codes in order.
 * A code already on the session is success with nothing changed.
 */
export async function applyPromotionCode(db: Db, sessionId: string, typed: string): Promise<{ code: string }> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "checkout_sessions" WHERE "id" = ${sessionId} FOR UPDATE`;
    if (locked.length === 0) throw notFound('Checkout session');
    const session = await tx.checkoutSession.findUniqueOrThrow({
      where: { id: sessionId },
      include: { lineItems: true },
    });
    if (session.status !== 'open' || session.expiresAt.getTime() <= Date.now())
      throw conflict('Checkout session is not open', 'CHECKOUT_NOT_OPEN');
    const claim = await tx.checkoutPaymentClaim.findUnique({ where: { checkoutSessionId: session.id } });
    if (claim?.state === 'held')
      throw conflict('A payment of this checkout session is in progress', 'CHECKOUT_PAYMENT_IN_PROGRESS');
    const scope = { accountId: session.accountId, mode: session.mode };
    const [code] = await resolvePromotionCodes(tx, scope, session.storeId, [typed]);
    if (session.promotionCodeIds.includes(code!.id)) return { code: code!.code };
    if (session.promotionCodeIds.length >= 5) throw invalid('At most 5 promotion codes', 'TOO_MANY_PROMOTION_CODES');
    await assertFirstTimeEligible(tx, session.customerId, [code!]);
    const promotions = await promotionsOf(tx, session.promotionCodeIds);
    let totals;
    try {
      totals = computeCheckoutTotals(session.currency, session.lineItems, [...promotions, code!.promotion]);
    } catch (error) {
      if (error instanceof TotalsError) throw invalid(error.message, 'INVALID_CHECKOUT_TOTALS');
      throw error;
    }
    await redeemPromotionCodes(tx, { checkoutSessionId: session.id, customerId: session.customerId, codes: [code!] });
    await tx.checkoutSession.update({
      where: { id: session.id },
      data: {
        promotionCodeIds: [...session.promotionCodeIds, code!.id],
        discountTotal: totals.discountTotal,
        total: totals.total,
      },
    });
    return { code: code!.code };
  }, transactionOptions);
}

async function promotionsOf(tx: Parameters<Parameters<Db['$transaction']>[0]>[0], codeIds: string[]) {
  const codes = await tx.promotionCode.findMany({ where: { id: { in: codeIds } }, include: { promotion: true } });
  return codeIds.flatMap((id): TotalsPromotion[] => {
    const promotion = codes.find((code) => code.id === id)?.promotion;
    if (!promotion) return [];
    return promotion.discountType === 'percentage'
      ? [{ discountType: 'percentage', percentBasisPoints: promotion.percentBasisPoints! }]
      : [{ discountType: 'fixed_amount', amountOff: promotion.amountOff!, currency: promotion.currency! }];
  });
}
