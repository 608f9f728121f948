import { addPrice, findPrice, listPrices, priceList, setPriceActive } from '../../commerce/prices';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import { createPriceSchema, priceParams, priceSchema, toPublicPrice, updatePriceSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['products'];

/** Prices: added to a variant, listed, retrieved, and (de)activated; amounts are immutable. */
export function registerPriceRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/prices',
      summary: 'Adds a price to a variant',
      description:
        "Adds a one-time or recurring price to a product variant, in integer minor units of one currency. A price's amount never changes: add a new price and deactivate the old one.",
      tags,
      body: createPriceSchema,
      example: { variantId: 'var_2MzQ8rTx5LwN1cVb7KpH', unitAmount: 2690, currency: 'EUR', type: 'one_time' },
      response: priceSchema,
    },
    async ({ body, req }) => {
      const { price, productId } = await addPrice(db, scopeOf(req), body);
      return toPublicPrice(price, productId);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/prices/list',
      summary: 'Lists prices (filters productId, variantId, currency, type, interval, active, unitAmount, createdAt)',
      description:
        "The account's prices, with offset pagination and filters; find the recurring prices a subscription can use here.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(priceSchema, 'PriceList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, priceList);
      const { rows, total } = await listPrices(db, scopeOf(req), query);
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
      description:
        'Activates or deactivates a price. An inactive price can no longer be sold; what was already sold keeps it.',
      tags,
      body: updatePriceSchema,
      example: { id: 'price_5JwK9pLm2XcV7bNq4RtY', data: { active: false } },
      response: priceSchema,
    },
    async ({ body, req }) => {
      const { price, productId } = await setPriceActive(db, scopeOf(req), body.id, body.data.active);
      return toPublicPrice(price, productId);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/prices/:priceId',
      summary: 'Retrieves a price',
      description: 'One price: amount, currency, type, recurring interval and whether it is active.',
      tags,
      params: priceParams,
      response: priceSchema,
    },
    async ({ params, req }) => {
      const price = await findPrice(db, scopeOf(req), params.priceId);
      return toPublicPrice(price, price.variant.productId);
    },
  );
}
