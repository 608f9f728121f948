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
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
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
      tags,
      body: createCheckoutSessionSchema,
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
      tags,
      body: listRequestSchema,
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
      tags,
      body: expireCheckoutSessionSchema,
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
      tags,
      params: checkoutSessionParams,
      response: checkoutSessionSchema,
    },
    async ({ params, req }) => present(req)(await findCheckoutSession(db, scopeOf(req), params.checkoutSessionId)),
  );
}
