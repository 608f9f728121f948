import type { Db, Prisma } from '../db/prisma';
import { computeCheckoutTotals, TotalsError, type TotalsPromotion } from '../domain/checkoutTotals';
import { newId } from '../domain/ids';
import { conflict, invalid, notFound } from '../errors';
import { sessionInclude, type CheckoutSessionWithLines } from './checkoutSessions';
import { findOffer } from './offers';
import type { Scope } from './scope';

type Tx = Prisma.TransactionClient;

// Ten callers applying one bump queue on the session's row lock; give them longer than Prisma's defaults.
const transactionOptions = { maxWait: 15_000, timeout: 15_000 };

/**
 * Adds an order-bump offer to an open checkout session as one more line and recomputes its totals
 * (promotion codes re-applied in their order). Exactly once: the session row is locked for the
 * transaction and a unique index on (session, offer) backs it; applying a bump already on the
 * session answers the session unchanged (already in the target state is success).
 */
export async function applyBump(
  db: Db,
  scope: Scope,
  offerId: string,
  checkoutSessionId: string,
): Promise<CheckoutSessionWithLines> {
  return db.$transaction(async (tx) => {
    const offer = await findOffer(tx, scope, offerId);
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "checkout_sessions"
       WHERE "id" = ${checkoutSessionId} AND "account_id" = ${scope.accountId} AND "mode" = ${scope.mode}::"Mode"
       FOR UPDATE`;
    if (locked.length === 0) throw notFound('Checkout session');
    const session = await tx.checkoutSession.findUniqueOrThrow({
      where: { id: checkoutSessionId },
      include: sessionInclude,
    });
    if (offer.type !== 'bump') throw invalid(`Offer ${offer.id} is a ${offer.type}, not a bump`, 'OFFER_NOT_A_BUMP');
    if (offer.storeId !== session.storeId)
      throw invalid('Offer and checkout session belong to different stores', 'OFFER_STORE_MISMATCH');
    if (session.lineItems.some((line) => line.offerId === offer.id)) return session;
    if (!offer.active) throw conflict(`Offer ${offer.id} is not active`, 'OFFER_INACTIVE');
    await assertSessionOpen(tx, session);
    const line = await bumpLine(tx, scope, offer, session.currency);
    const totals = await totalsWith(tx, session, line);
    const position = session.lineItems.reduce((max, item) => Math.max(max, item.position + 1), 0);
    await tx.checkoutSessionLineItem.createMany({
      data: [
        {
          id: newId('checkoutLineItem'),
          checkoutSessionId,
          offerId: offer.id,
          position,
          ...line,
          amountSubtotal: totals.lineSubtotals.at(-1)!,
        },
      ],
      skipDuplicates: true,
    });
    await tx.checkoutSession.update({
      where: { id: checkoutSessionId },
      data: { subtotal: totals.subtotal, discountTotal: totals.discountTotal, total: totals.total },
    });
    return tx.checkoutSession.findUniqueOrThrow({ where: { id: checkoutSessionId }, include: sessionInclude });
  }, transactionOptions);
}

/** A bump goes only on a session still open, unexpired, and not being paid. */
async function assertSessionOpen(tx: Tx, session: CheckoutSessionWithLines): Promise<void> {
  if (session.status === 'paid') throw conflict('Checkout session is already paid', 'CHECKOUT_ALREADY_PAID');
  if (session.status !== 'open' || session.expiresAt.getTime() <= Date.now())
    throw conflict('Checkout session is not open', 'CHECKOUT_NOT_OPEN');
  const claim = await tx.checkoutPaymentClaim.findUnique({ where: { checkoutSessionId: session.id } });
  if (claim?.state === 'held')
    throw conflict('A payment of this checkout session is in progress', 'CHECKOUT_PAYMENT_IN_PROGRESS');
}

/** The line a bump adds: its price (still active), at the override amount when the offer has one. */
async function bumpLine(
  tx: Tx,
  scope: Scope,
  offer: {
    id: string;
    priceId: string;
    quantity: number;
    overrideAmount: number | null;
    overrideCurrency: string | null;
  },
  currency: string,
) {
  const price = await tx.price.findFirst({
    where: { ...scope, id: offer.priceId },
    include: { variant: { include: { product: true } } },
  });
  if (!price) throw invalid(`Price ${offer.priceId} of offer ${offer.id} no longer exists`, 'PRICE_NOT_FOUND');
  if (!price.active || !price.variant.product.active)
    throw invalid(`Price ${offer.priceId} is not active`, 'PRICE_INACTIVE');
  const unitAmount = offer.overrideAmount ?? price.unitAmount;
  const lineCurrency = offer.overrideCurrency ?? price.currency;
  if (lineCurrency !== currency)
    throw invalid(`Offer ${offer.id} is in ${lineCurrency}, the session in ${currency}`, 'CURRENCY_MISMATCH');
  return {
    priceId: price.id,
    productId: price.variant.productId,
    variantId: price.variantId,
    productName: price.variant.product.name,
    quantity: offer.quantity,
    unitAmount,
  };
}

/**
 * Subtotal, discounts and total of the session with one more line, the session's promotion codes
 * re-applied in their order (a percentage grows with the cart; a fixed amount stays capped).
 */
async function totalsWith(tx: Tx, session: CheckoutSessionWithLines, line: { unitAmount: number; quantity: number }) {
  const codes = await tx.promotionCode.findMany({
    where: { id: { in: session.promotionCodeIds } },
    include: { promotion: true },
  });
  const promotions: TotalsPromotion[] = session.promotionCodeIds.flatMap((id): TotalsPromotion[] => {
    const promotion = codes.find((code) => code.id === id)?.promotion;
    if (!promotion) return [];
    return promotion.discountType === 'percentage'
      ? [{ discountType: 'percentage', percentBasisPoints: promotion.percentBasisPoints! }]
      : [{ discountType: 'fixed_amount', amountOff: promotion.amountOff!, currency: promotion.currency! }];
  });
  try {
    return computeCheckoutTotals(session.currency, [...session.lineItems, line], promotions);
  } catch (error) {
    if (error instanceof TotalsError) throw invalid(error.message, 'INVALID_CHECKOUT_TOTALS');
    throw error;
  }
}
