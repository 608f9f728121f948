import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { Price, Variant } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { notFound, orNotFound } from '../errors';
import type { Scope } from './scope';

export const priceList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', unitAmount: 'unitAmount', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    productId: { kind: 'id', prefix: 'prod', path: ['variant', 'productId'] },
    variantId: { kind: 'id', prefix: 'var' },
    currency: { kind: 'string' },
    type: { kind: 'enum', values: ['one_time', 'recurring'] },
    interval: { kind: 'enum', values: ['day', 'week', 'month', 'year'] },
    active: { kind: 'boolean' },
    unitAmount: { kind: 'number' },
    createdAt: { kind: 'date' },
  },
};

/** What a price is made of; amount, currency and interval never change once stored. */
export interface PriceFields {
  unitAmount: number;
  currency: string;
  type: 'one_time' | 'recurring';
  interval?: 'day' | 'week' | 'month' | 'year';
  intervalCount?: number;
}

export type PriceWithVariant = Price & { variant: Variant };

/** The columns of a new price (id, scope, amounts; a one-time price has no interval). */
export function priceData(price: PriceFields, scope: Scope) {
  return {
    id: newId('price'),
    ...scope,
    unitAmount: price.unitAmount,
    currency: price.currency,
    type: price.type,
    interval: price.type === 'recurring' ? price.interval! : null,
    intervalCount: price.type === 'recurring' ? (price.intervalCount ?? 1) : null,
  };
}

/** Adds a price after the variant's existing ones; the variant must be the caller's (not_found otherwise). */
export async function addPrice(
  db: Db,
  scope: Scope,
  input: PriceFields & { variantId: string },
): Promise<{ price: Price; productId: string }> {
  const variant = await db.variant.findFirst({ where: { id: input.variantId, product: scope } });
  if (!variant) throw notFound('Variant');
  const position = await db.price.count({ where: { variantId: variant.id } });
  const price = await db.price.create({ data: { ...priceData(input, scope), variantId: variant.id, position } });
  return { price, productId: variant.productId };
}

export async function listPrices(db: Db, scope: Scope, query: ListQuery): Promise<Page<PriceWithVariant>> {
  const args = scopedPageArgs<Prisma.PriceFindManyArgs>(scope, query);
  return readPage(db.price.findMany({ ...args, include: { variant: true } }), db.price.count({ where: args.where }));
}

/** A price of the caller's account and mode with its variant, or not_found. */
export async function findPrice(db: Db, scope: Scope, priceId: string): Promise<PriceWithVariant> {
  return orNotFound(
    await db.price.findFirst({ where: { id: priceId, ...scope }, include: { variant: true } }),
    'Price',
  );
}

/** (De)activates a price: the only change a price allows. */
export async function setPriceActive(
  db: Db,
  scope: Scope,
  priceId: string,
  active: boolean,
): Promise<{ price: Price; productId: string }> {
  const existing = await findPrice(db, scope, priceId);
  const price = await db.price.update({ where: { id: existing.id }, data: { active } });
  return { price, productId: existing.variant.productId };
}
