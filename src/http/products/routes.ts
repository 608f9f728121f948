import type { Db, Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf, type Scope } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import { findStore } from '../stores/routes';
import { priceData, registerPriceRoutes } from './priceRoutes';
import { createProductSchema, productParams, productSchema, toPublicProduct, updateProductSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['products'];

const productList: ListDefinition = {
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

async function findProduct(db: Db, scope: Scope, productId: string) {
  const product = await db.product.findFirst({ where: { id: productId, ...scope }, include: withPrices });
  if (!product) throw notFound('Product');
  return product;
}

export function registerProductRoutes(routers: Routers, deps: AppDeps): void {
  const { publicRouter } = routers;
  const { db } = deps;
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/products',
      summary: 'Creates a product with its variants and prices',
      tags,
      body: createProductSchema,
      response: productSchema,
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      await findStore(db, scope, body.storeId);
      const { variants, ...fields } = body;
      const product = await db.product.create({
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
      return toPublicProduct(product);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/products/list',
      summary: 'Lists products with variants and prices',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(productSchema, 'ProductList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, productList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.ProductWhereInput;
      const [rows, total] = await Promise.all([
        db.product.findMany({
          where,
          orderBy: query.orderBy as Prisma.ProductOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
          include: withPrices,
        }),
        db.product.count({ where }),
      ]);
      return { data: rows.map(toPublicProduct), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/products/:productId',
      summary: 'Retrieves a product',
      tags,
      params: productParams,
      response: productSchema,
    },
    async ({ params, req }) => toPublicProduct(await findProduct(db, scopeOf(req), params.productId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'put',
      path: '/products/:productId',
      summary:
        'Updates a product: name, description, active, tax (isTaxable, taxCode) and shipping (isShippable, weightGrams)',
      tags,
      params: productParams,
      body: updateProductSchema,
      response: productSchema,
    },
    async ({ params, body, req }) => {
      const existing = await findProduct(db, scopeOf(req), params.productId);
      const product = await db.product.update({
        where: { id: existing.id },
        data: body.updatedData,
        include: withPrices,
      });
      return toPublicProduct(product);
    },
  );
  registerPriceRoutes(routers, deps);
}
