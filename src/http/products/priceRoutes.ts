import type { Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf, type Scope } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import {
  createPriceSchema,
  priceParams,
  priceSchema,
  toPublicPrice,
  updatePriceSchema,
  type PriceInput,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['products'];

const priceList: ListDefinition = {
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

export function priceData(price: PriceInput, scope: Scope) {
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

/** Prices: added to a variant, listed, retrieved, and (de)activated; amounts are immutable. */
export function registerPriceRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/prices',
      summary: 'Adds a price to a variant',
      tags,
      body: createPriceSchema,
      response: priceSchema,
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const variant = await db.variant.findFirst({ where: { id: body.variantId, product: scope } });
      if (!variant) throw notFound('Variant');
      const position = await db.price.count({ where: { variantId: variant.id } });
      const price = await db.price.create({ data: { ...priceData(body, scope), variantId: variant.id, position } });
      return toPublicPrice(price, variant.productId);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/prices/list',
      summary: 'Lists prices (filters productId, variantId, currency, type, interval, active, unitAmount, createdAt)',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(priceSchema, 'PriceList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, priceList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.PriceWhereInput;
      const [rows, total] = await Promise.all([
        db.price.findMany({
          where,
          orderBy: query.orderBy as Prisma.PriceOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
          include: { variant: true },
        }),
        db.price.count({ where }),
      ]);
      return { data: rows.map((row) => toPublicPrice(row, row.variant.productId)), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/prices/update',
      summary: 'Activates or deactivates a price',
      tags,
      body: updatePriceSchema,
      response: priceSchema,
    },
    async ({ body, req }) => {
      const existing = await db.price.findFirst({
        where: { id: body.id, ...scopeOf(req) },
        include: { variant: true },
      });
      if (!existing) throw notFound('Price');
      const price = await db.price.update({ where: { id: existing.id }, data: { active: body.data.active } });
      return toPublicPrice(price, existing.variant.productId);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/prices/:priceId',
      summary: 'Retrieves a price',
      tags,
      params: priceParams,
      response: priceSchema,
    },
    async ({ params, req }) => {
      const price = await db.price.findFirst({
        where: { id: params.priceId, ...scopeOf(req) },
        include: { variant: true },
      });
      if (!price) throw notFound('Price');
      return toPublicPrice(price, price.variant.productId);
    },
  );
}
