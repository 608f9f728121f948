import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { Offer } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { invalid, orNotFound } from '../errors';
import type { Scope } from './scope';
import { findStore } from './stores';

/** upsell and downsell are shown after a purchase (funnels); a bump is added to a checkout before payment. */
export const upsellOfferTypes = ['upsell', 'downsell', 'bump'] as const;
export type UpsellOfferType = (typeof upsellOfferTypes)[number];

export const offerList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    storeId: { kind: 'id', prefix: 'store' },
    type: { kind: 'enum', values: upsellOfferTypes },
    priceId: { kind: 'id', prefix: 'price' },
    active: { kind: 'boolean' },
    createdAt: { kind: 'date' },
  },
};

export interface CreateOfferInput {
  storeId: string;
  type: UpsellOfferType;
  title: string;
  priceId: string;
  quantity?: number;
  priceOverride?: { unitAmount: number; currency: string } | null;
  active?: boolean;
}

/**
 * Creates an offer on one price of the store. An override replaces the price's amount and must be
 * in a currency the store sells in; without one the price's own amount and currency apply.
 */
export async function createOffer(db: Db, scope: Scope, input: CreateOfferInput): Promise<Offer> {
  const store = await findStore(db, scope, input.storeId);
  const price = await db.price.findFirst({
    where: { ...scope, id: input.priceId, variant: { product: { storeId: store.id } } },
    include: { variant: true },
  });
  if (!price) throw invalid('priceId must be a price of this store', 'PRICE_NOT_FOUND');
  const override = input.priceOverride ?? null;
  if (override && override.currency !== store.baseCurrency && !store.presentmentCurrencies.includes(override.currency))
    throw invalid(`Store does not sell in ${override.currency}`, 'CURRENCY_NOT_SUPPORTED');
  return db.offer.create({
    data: {
      id: newId('offer'),
      ...scope,
      storeId: store.id,
      type: input.type,
      title: input.title,
      productId: price.variant.productId,
      priceId: price.id,
      quantity: input.quantity ?? 1,
      overrideAmount: override?.unitAmount ?? null,
      overrideCurrency: override?.currency ?? null,
      active: input.active ?? true,
    },
  });
}

export async function listOffers(db: Db, scope: Scope, query: ListQuery): Promise<Page<Offer>> {
  const args = scopedPageArgs<Prisma.OfferFindManyArgs>(scope, query);
  return readPage(db.offer.findMany(args), db.offer.count({ where: args.where }));
}

/** An offer of the caller's account and mode, or not_found. */
export async function findOffer(db: Db | Prisma.TransactionClient, scope: Scope, offerId: string): Promise<Offer> {
  return orNotFound(await db.offer.findFirst({ where: { id: offerId, ...scope } }), 'Offer');
}
