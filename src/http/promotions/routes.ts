import {
  createPromotion,
  findPromotion,
  listPromotions,
  promotionList,
  updatePromotion,
} from '../../commerce/promotions';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  createPromotionSchema,
  promotionParams,
  promotionSchema,
  toPublicPromotion,
  updatePromotionSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['promotions'];

export function registerPromotionRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotions',
      summary: 'Creates a promotion (percentage in basis points, or a fixed amount in one currency)',
      description:
        'Creates a discount rule: a percentage (basis points) or a fixed amount in one currency. Customers redeem it through promotion codes.',
      tags,
      body: createPromotionSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        name: 'Welcome 10 %',
        discountType: 'percentage',
        percentBasisPoints: 1000,
      },
      response: promotionSchema,
    },
    async ({ body, req }) => toPublicPromotion(await createPromotion(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotions/list',
      summary: 'Lists promotions',
      description: "The account's promotions with offset pagination and filters.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(promotionSchema, 'PromotionList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, promotionList);
      const { rows, total } = await listPromotions(db, scopeOf(req), query);
      return { data: rows.map(toPublicPromotion), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotions/update',
      summary: 'Renames or (de)activates a promotion',
      description:
        'Renames a promotion or turns it on or off; its discount does not change (create another promotion for that).',
      tags,
      body: updatePromotionSchema,
      example: { id: 'promo_3EdC6rFv9TgB2yHn5UjM', data: { active: false } },
      response: promotionSchema,
    },
    async ({ body, req }) => toPublicPromotion(await updatePromotion(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/promotions/:promotionId',
      summary: 'Retrieves a promotion',
      description: 'One promotion and its discount.',
      tags,
      params: promotionParams,
      response: promotionSchema,
    },
    async ({ params, req }) => toPublicPromotion(await findPromotion(db, scopeOf(req), params.promotionId)),
  );
}
