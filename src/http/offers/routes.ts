import { applyBump } from '../../commerce/offerBumps';
import { createOffer, findOffer, listOffers, offerList } from '../../commerce/offers';
import { scopeOf } from '../auth/scope';
import { checkoutSessionSchema, presentCheckoutSession } from '../checkout-sessions/validators';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import { applyOfferSchema, createOfferSchema, offerParams, offerSchema, toPublicOffer } from './validators';

const basePath = '/api/public/v1';
const tags = ['offers'];

/** Upsell, downsell and order-bump offers (ofr_): not the checkout offers (co_) of /checkout-offers. */
export function registerOfferRoutes({ publicRouter }: Routers, { db, config }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/offers/create',
      summary: 'Creates an upsell, downsell or order-bump offer on one price of a store',
      description:
        'A record distinct from checkout offers (/checkout-offers). The offer names one price of the store ' +
        '(its product follows) and optionally a priceOverride in integer minor units of a currency the store sells in.',
      tags,
      body: createOfferSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        type: 'bump',
        title: 'Add a second bag at 20 % off',
        priceId: 'price_5JwK9pLm2XcV7bNq4RtY',
        quantity: 1,
        priceOverride: { unitAmount: 1990, currency: 'EUR' },
      },
      response: offerSchema,
    },
    async ({ body, req }) => toPublicOffer(await createOffer(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/offers/list',
      summary: 'Lists offers (filters: storeId, type, priceId, active, createdAt)',
      description: "The account's offers (upsells, downsells, order bumps) with offset pagination and filters.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(offerSchema, 'OfferList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, offerList);
      const { rows, total } = await listOffers(db, scopeOf(req), query);
      return { data: rows.map(toPublicOffer), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/offers/:id',
      summary: 'Retrieves an offer',
      description: 'One offer: its type, price, quantity and price override.',
      tags,
      params: offerParams,
      response: offerSchema,
    },
    async ({ params, req }) => toPublicOffer(await findOffer(db, scopeOf(req), params.id)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/offers/:id/apply',
      summary: 'Adds an order bump to an open checkout session, once',
      description:
        'Only offers of type bump, of the session’s store, in the session currency. The line is added and the totals ' +
        'recomputed (promotion codes re-applied in order) in one transaction. Exactly once per session and offer ' +
        '(a unique index): applying it again answers the session unchanged. 409 CHECKOUT_NOT_OPEN, ' +
        'CHECKOUT_ALREADY_PAID or CHECKOUT_PAYMENT_IN_PROGRESS when the session can no longer change; 409 OFFER_INACTIVE.',
      tags,
      params: offerParams,
      body: applyOfferSchema,
      example: { checkoutSessionId: 'ch_3WsX6eDc9RfV2tGb5YhN' },
      response: checkoutSessionSchema,
      errors: [409],
    },
    async ({ params, body, req }) =>
      presentCheckoutSession(db, config, req, await applyBump(db, scopeOf(req), params.id, body.checkoutSessionId)),
  );
}
