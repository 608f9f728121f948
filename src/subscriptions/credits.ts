import { createOrder } from '../commerce/orders';
import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import { recordEvent } from '../events/recordEvent';
import { conflict, notFound } from '../errors';
import type { CustomerPortalSession } from '../portal/session';

/** One credit buys one unit (documented decision); savedToDate grows by the unit's retail price. */
export const creditsPerUnit = 1;

/**
 * Spends credits on a product of the session's store and creates a paid order, in one
 * transaction. The balance moves only by a conditional UPDATE (balance >= cost), so concurrent
 * redemptions serialize on the row and can never overspend.
 */
export async function redeemCredits(
  db: Db,
  session: CustomerPortalSession,
  input: { productId: string; variantId: string; quantity: number },
): Promise<{ orderId: string; balance: number; eventIds: string[] }> {
  const scope = { accountId: session.accountId, mode: session.mode };
  const membership = await db.membership.findFirst({
    where: {
      ...scope,
      customerId: session.customerId,
      storeId: session.storeId,
      status: { in: ['active', 'trialing', 'past_due'] },
    },
    orderBy: { createdAt: 'asc' },
  });
  if (!membership) throw notFound('Active membership');
  const variant = await db.variant.findFirst({
    where: {
      id: input.variantId,
      productId: input.productId,
      product: { ...scope, storeId: session.storeId, active: true },
    },
    include: { product: true, prices: { where: { active: true, type: 'one_time' }, orderBy: { createdAt: 'asc' } } },
  });
  if (!variant) throw notFound('Product variant');
  const currency = (await db.subscription.findUniqueOrThrow({ where: { id: membership.subscriptionId } })).currency;
  const retail = variant.prices.find((price) => price.currency === currency) ?? variant.prices[0];
  const unitAmount = retail?.unitAmount ?? 0;
  const cost = input.quantity * creditsPerUnit;

  return db.$transaction(async (tx) => {
    const spent = await tx.membership.updateMany({
      where: { id: membership.id, creditsBalance: { gte: cost } },
      data: { creditsBalance: { decrement: cost }, savedToDate: { increment: unitAmount * input.quantity } },
    });
    if (spent.count !== 1) {
      const { creditsBalance } = await tx.membership.findUniqueOrThrow({ where: { id: membership.id } });
      throw conflict(`Not enough credits: ${cost} needed, ${creditsBalance} available`, 'INSUFFICIENT_CREDITS');
    }
    const order = await createOrder(tx, {
      ...scope,
      storeId: session.storeId,
      customerId: session.customerId,
      currency: retail?.currency ?? currency,
      status: 'paid',
      items: [
        {
          productName: variant.product.name,
          quantity: input.quantity,
          unitAmount,
          priceId: retail?.id ?? null,
          productId: variant.productId,
          variantId: variant.id,
        },
      ],
      discountTotal: unitAmount * input.quantity,
      source: `credits:${membership.id}`,
    });
    await tx.creditRedemption.create({
      data: {
        id: newId('creditRedemption'),
        membershipId: membership.id,
        productId: variant.productId,
        variantId: variant.id,
        quantity: input.quantity,
        credits: cost,
        savedAmount: unitAmount * input.quantity,
        orderId: order.id,
      },
    });
    const event = await recordEvent(tx, {
      ...scope,
      storeId: session.storeId,
      customerId: session.customerId,
      eventType: 's_order_paid',
      properties: {
        orderId: order.id,
        amount: 0,
        currency: order.currency,
        paidWithCredits: cost,
        membershipId: membership.id,
      },
    });
    const { creditsBalance } = await tx.membership.findUniqueOrThrow({ where: { id: membership.id } });
    return { orderId: order.id, balance: creditsBalance, eventIds: [event.id] };
  });
}
