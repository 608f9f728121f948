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
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
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
      description:
        'Creates a checkout offer (upsell, downsell, cross-sell or order bump) with its line items and promotions, to present around a checkout.',
      tags,
      body: createCheckoutOfferSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        type: 'order_bump',
        titleTrans: { en: 'Add a mug', de: 'Dazu ein Becher' },
        lineItems: [{ priceId: 'price_5JwK9pLm2XcV7bNq4RtY', quantity: 1 }],
        promotionIds: ['promo_3EdC6rFv9TgB2yHn5UjM'],
      },
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
      description: "The account's checkout offers with offset pagination and filters.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
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
      description: "Changes a checkout offer's fields, line items or promotions (`{id, data}`).",
      tags,
      body: updateCheckoutOfferSchema,
      example: { id: 'co_7UjM2iKo5LpQ8aZw3SxE', data: { active: false } },
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
      description: 'One checkout offer with its line items and promotions (a POST without a body).',
      tags,
      params: checkoutOfferParams,
      response: checkoutOfferSchema,
    },
    async ({ params, req }) => toPublicCheckoutOffer(await findCheckoutOffer(db, scopeOf(req), params.id)),
  );
}
