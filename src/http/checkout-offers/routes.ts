import {
  checkoutOfferList,
  createCheckoutOffer,
  findCheckoutOffer,
  listCheckoutOffers,
  updateCheckoutOffer,
} from '../../commerce/checkoutOffers';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  checkoutOfferParams,
  checkoutOfferSchema,
  createCheckoutOfferSchema,
  toPublicCheckoutOffer,
  updateCheckoutOfferSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['checkout-offers'];

export function registerCheckoutOfferRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-offers/create',
      summary: 'Creates a checkout offer with line items and promotions',
      tags,
      body: createCheckoutOfferSchema,
      response: checkoutOfferSchema,
    },
    async ({ body, req }) => toPublicCheckoutOffer(await createCheckoutOffer(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-offers/list',
      summary: 'Lists checkout offers',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(checkoutOfferSchema, 'CheckoutOfferList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, checkoutOfferList);
      const { rows, total } = await listCheckoutOffers(db, scopeOf(req), query);
      return { data: rows.map(toPublicCheckoutOffer), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-offers/update',
      summary: 'Updates a checkout offer',
      tags,
      body: updateCheckoutOfferSchema,
      response: checkoutOfferSchema,
    },
    async ({ body, req }) => toPublicCheckoutOffer(await updateCheckoutOffer(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-offers/:id',
      summary: 'Retrieves a checkout offer with its line items and promotions (no body)',
      tags,
      params: checkoutOfferParams,
      response: checkoutOfferSchema,
    },
    async ({ params, req }) => toPublicCheckoutOffer(await findCheckoutOffer(db, scopeOf(req), params.id)),
  );
}
