import {
  createPromotionCode,
  findPromotionCode,
  listPromotionCodes,
  promotionCodeList,
  updatePromotionCode,
} from '../../commerce/promotionCodes';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  createPromotionCodeSchema,
  promotionCodeParams,
  promotionCodeSchema,
  toPublicPromotionCode,
  updatePromotionCodeSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['promotion-codes'];

export function registerPromotionCodeRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotion-codes',
      summary: 'Creates a redeemable code for a promotion',
      description:
        'Creates a code customers type at checkout for a promotion, with an optional usage limit and first-time-customers-only rule.',
      tags,
      body: createPromotionCodeSchema,
      example: {
        promotionId: 'promo_3EdC6rFv9TgB2yHn5UjM',
        code: 'WELCOME10',
        usageLimit: 500,
        firstTimeCustomersOnly: true,
      },
      response: promotionCodeSchema,
      errors: [409],
    },
    async ({ body, req }) => toPublicPromotionCode(await createPromotionCode(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotion-codes/list',
      summary: 'Lists promotion codes',
      description: "The account's promotion codes with offset pagination and filters.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(promotionCodeSchema, 'PromotionCodeList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, promotionCodeList);
      const { rows, total } = await listPromotionCodes(db, scopeOf(req), query);
      return { data: rows.map(toPublicPromotionCode), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotion-codes/update',
      summary: 'Updates a promotion code: code, usageLimit, active, firstTimeCustomersOnly',
      description: "Changes a code's text, usage limit, active flag or first-time-customers-only rule.",
      tags,
      body: updatePromotionCodeSchema,
      example: { id: 'pc_1EdC4rFv7TgB2yHn5UjM', data: { usageLimit: 1000 } },
      response: promotionCodeSchema,
      errors: [409],
    },
    async ({ body, req }) => toPublicPromotionCode(await updatePromotionCode(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/promotion-codes/:promotionCodeId',
      summary: 'Retrieves a promotion code',
      description: 'One promotion code with its promotion, usage limit and rules.',
      tags,
      params: promotionCodeParams,
      response: promotionCodeSchema,
    },
    async ({ params, req }) => toPublicPromotionCode(await findPromotionCode(db, scopeOf(req), params.promotionCodeId)),
  );
}
