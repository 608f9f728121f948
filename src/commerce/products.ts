import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import { orNotFound } from '../errors';
import { priceData, type PriceFields } from './prices';
import type { Scope } from './scope';
import { findStore } from './stores';

export const productList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', updatedAt: 'updatedAt', name: 'name', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    name: { kind: 'string' },
    active: { kind: 'boolean' },
    isShippable: { kind: 'boolean' },
    isTaxable: { kind: 'boolean' },
    storeId: { kind: 'id', prefix: 'store' },
    createdAt: { kind: 'date' },
  },
};

const byPosition: Prisma.PriceOrderByWithRelationInput[] = [{ position: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }];
const withPrices = {
  variants: {
    orderBy: byPosition as Prisma.VariantOrderByWithRelationInput[],
    include: { prices: { orderBy: byPosition } },
  },
} satisfies Prisma.ProductInclude;

/** A product with its variants and their prices, each in position order. */
export type ProductWithPrices = Prisma.ProductGetPayload<{ include: typeof withPrices }>;

export interface ProductFields {
  name: string;
  description?: string | null;
  active?: boolean;
  isShippable?: boolean;
  isTaxable?: boolean;
  taxCode?: string | null;
  weightGrams?: number | null;
}

export interface NewProduct extends ProductFields {
  storeId: string;
  variants: { name: string; sku?: string; prices: PriceFields[] }[];
}

/** A product of the caller's account and mode, or not_found. */
export async function findProduct(db: Db, scope: Scope, productId: string): Promise<ProductWithPrices> {
  return orNotFound(await db.product.findFirst({ where: { id: productId, ...scope }, include: withPrices }), 'Product');
}

/** A product with its variants and their prices, in one nested insert, in one of the caller's stores. */
export async function createProduct(db: Db, scope: Scope, input: NewProduct): Promise<ProductWithPrices> {
  await findStore(db, scope, input.storeId);
  const { variants, ...fields } = input;
  return db.product.create({
    data: {
      id: newId('product'),
      ...scope,
      ...fields,
      variants: {
        create: variants.map((variant, position) => ({
          id: newId('variant'),
          position,
          name: variant.name,
          sku: variant.sku ?? null,
          prices: {
            create: variant.prices.map((price, index) => ({ ...priceData(price, scope), position: index })),
          },
        })),
      },
    },
    include: withPrices,
  });
}

export async function listProducts(db: Db, scope: Scope, query: ListQuery): Promise<Page<ProductWithPrices>> {
  const args = scopedPageArgs<Prisma.ProductFindManyArgs>(scope, query);
  return readPage(db.product.findMany({ ...args, include: withPrices }), db.product.count({ where: args.where }));
}

export async function updateProduct(
  db: Db,
  scope: Scope,
  productId: string,
  data: Partial<ProductFields>,
): Promise<ProductWithPrices> {
  const existing = await findProduct(db, scope, productId);
  return db.product.update({ where: { id: existing.id }, data, include: withPrices });
}
