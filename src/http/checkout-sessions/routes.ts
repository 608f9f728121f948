import type { Request } from 'express';
import {
  checkoutSessionList,
  createCheckoutSession,
  expireCheckoutSession,
  findCheckoutSession,
  listCheckoutSessions,
} from '../../commerce/checkoutSessions';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  checkoutSessionParams,
  checkoutSessionSchema,
  createCheckoutSessionSchema,
  expireCheckoutSessionSchema,
  presentCheckoutSession,
  presentCheckoutSessions,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['checkout'];

export function registerCheckoutSessionRoutes({ publicRouter }: Routers, { db, config }: AppDeps): void {
  const present = (req: Request) => (row: Parameters<typeof presentCheckoutSession>[3]) =>
    presentCheckoutSession(db, config, req, row);

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-sessions',
      summary:
        'Creates a checkout session; totals are computed server-side in minor units and promotion codes are redeemed',
      description:
        'Creates a checkout session from line items (price ids and quantities) for a customer; totals and discounts are computed by the engine in minor units. Pay it with pay-v2, or send the customer to its hosted page (`url`).',
      tags,
      body: createCheckoutSessionSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        customerId: 'cus_3HdP0sVb6YkR2wQe9LmT',
        lineItems: [{ priceId: 'price_5JwK9pLm2XcV7bNq4RtY', quantity: 2 }],
        promotionCodes: ['WELCOME10'],
        successUrl: 'https://shop.example.com/thanks',
        cancelUrl: 'https://shop.example.com/cart',
      },
      response: checkoutSessionSchema,
      errors: [409],
    },
    async ({ body, req }) => present(req)(await createCheckoutSession(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-sessions/list',
      summary: 'Lists checkout sessions (filters status, currency, storeId, customerId, total, createdAt)',
      description:
        "The account's checkout sessions with offset pagination and filters (status, store, customer, total, date).",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(checkoutSessionSchema, 'CheckoutSessionList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, checkoutSessionList);
      const { rows, total } = await listCheckoutSessions(db, scopeOf(req), query);
      return { data: await presentCheckoutSessions(db, config, req, rows), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-sessions/expire',
      summary: 'Expires an open checkout session and releases its promotion-code redemptions',
      description:
        'Closes an open session so it can no longer be paid and gives its promotion-code uses back, e.g. when the cart is abandoned or changed.',
      tags,
      body: expireCheckoutSessionSchema,
      example: { id: 'ch_3WsX6eDc9RfV2tGb5YhN' },
      response: checkoutSessionSchema,
      errors: [409],
    },
    async ({ body, req }) => present(req)(await expireCheckoutSession(db, scopeOf(req), body.id)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/checkout-sessions/:checkoutSessionId',
      summary: 'Retrieves a checkout session with its totals',
      description: 'One checkout session with its lines, discounts, totals and status (open, paid, expired).',
      tags,
      params: checkoutSessionParams,
      response: checkoutSessionSchema,
    },
    async ({ params, req }) => present(req)(await findCheckoutSession(db, scopeOf(req), params.checkoutSessionId)),
  );
}
