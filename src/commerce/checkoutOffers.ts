import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { CheckoutOffer, Price, Product, Promotion, Variant } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { invalid, orNotFound } from '../errors';
import type { Scope } from './scope';
import { findStore } from './stores';

export const offerTypes = ['upsell', 'downsell', 'cross_sell', 'order_bump'] as const;
export type OfferType = (typeof offerTypes)[number];

export const checkoutOfferList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    storeId: { kind: 'id', prefix: 'store' },
    type: { kind: 'enum', values: offerTypes },
    active: { kind: 'boolean' },
    createdAt: { kind: 'date' },
  },
};

// Type aliases, not interfaces: they are stored as JSON, which Prisma types as index-signature objects.
export type OfferLineItem = { priceId: string; quantity: number };

export type CheckoutOfferFields = {
  type: OfferType;
  titleTrans: Record<string, string>;
  lineItems: OfferLineItem[];
  promotionIds?: string[];
  active?: boolean;
};

/** An offer with what its line items and promotions name, as stored now (a price or promotion may be gone). */
export interface CheckoutOfferWithReferences {
  offer: CheckoutOffer;
  lineItems: OfferLineItem[];
  prices: (Price & { variant: Variant & { product: Product } })[];
  promotions: Promotion[];
}

/** Prices and promotions an offer names must exist in the same store, account and mode (invalid otherwise). */
async function assertReferences(
  db: Db,
  scope: Scope,
  storeId: string,
  lineItems: OfferLineItem[] | undefined,
  promotionIds: string[] | undefined,
): Promise<void> {
  if (lineItems) {
    const ids = [...new Set(lineItems.map((item) => item.priceId))];
    const found = await db.price.count({ where: { ...scope, id: { in: ids }, variant: { product: { storeId } } } });
    if (found !== ids.length)
      throw invalid('Every lineItems[].priceId must be a price of this store', 'PRICE_NOT_FOUND');
  }
  if (promotionIds) {
    const ids = [...new Set(promotionIds)];
    const found = await db.promotion.count({ where: { ...scope, id: { in: ids }, storeId } });
    if (found !== ids.length)
      throw invalid('Every promotionIds[] entry must be a promotion of this store', 'PROMOTION_NOT_FOUND');
  }
}

/** Loads the prices (with product names) and promotions an offer names. */
async function withReferences(db: Db, offer: CheckoutOffer): Promise<CheckoutOfferWithReferences> {
  const lineItems = offer.lineItems as OfferLineItem[];
  const [prices, promotions] = await Promise.all([
    db.price.findMany({
      where: { id: { in: lineItems.map((item) => item.priceId) } },
      include: { variant: { include: { product: true } } },
    }),
    db.promotion.findMany({ where: { id: { in: offer.promotionIds } } }),
  ]);
  return { offer, lineItems, prices, promotions };
}

async function findOffer(db: Db, scope: Scope, offerId: string): Promise<CheckoutOffer> {
  return orNotFound(await db.checkoutOffer.findFirst({ where: { id: offerId, ...scope } }), 'Checkout offer');
}

export async function createCheckoutOffer(
  db: Db,
  scope: Scope,
  input: CheckoutOfferFields & { storeId: string },
): Promise<CheckoutOfferWithReferences> {
  await findStore(db, scope, input.storeId);
  await assertReferences(db, scope, input.storeId, input.lineItems, input.promotionIds);
  const offer = await db.checkoutOffer.create({
    data: {
      id: newId('checkoutOffer'),
      ...scope,
      storeId: input.storeId,
      type: input.type,
      titleTrans: input.titleTrans,
      lineItems: input.lineItems,
      promotionIds: input.promotionIds ?? [],
      active: input.active ?? true,
    },
  });
  return withReferences(db, offer);
}

export async function listCheckoutOffers(
  db: Db,
  scope: Scope,
  query: ListQuery,
): Promise<Page<CheckoutOfferWithReferences>> {
  const args = scopedPageArgs<Prisma.CheckoutOfferFindManyArgs>(scope, query);
  const { rows, total } = await readPage(
    db.checkoutOffer.findMany(args),
    db.checkoutOffer.count({ where: args.where }),
  );
  return { rows: await Promise.all(rows.map((row) => withReferences(db, row))), total };
}

/** Changes an offer; new line items and promotions must be of the offer's store. */
export async function updateCheckoutOffer(
  db: Db,
  scope: Scope,
  offerId: string,
  data: Partial<CheckoutOfferFields>,
): Promise<CheckoutOfferWithReferences> {
  const existing = await findOffer(db, scope, offerId);
  await assertReferences(db, scope, existing.storeId, data.lineItems, data.promotionIds);
  const offer = await db.checkoutOffer.update({ where: { id: existing.id }, data });
  return withReferences(db, offer);
}

export async function findCheckoutOffer(db: Db, scope: Scope, offerId: string): Promise<CheckoutOfferWithReferences> {
  return withReferences(db, await findOffer(db, scope, offerId));
}
