import type { Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
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

const codeList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', code: 'code', timesRedeemed: 'timesRedeemed', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    code: { kind: 'string' },
    promotionId: { kind: 'id', prefix: 'promo' },
    active: { kind: 'boolean' },
    firstTimeCustomersOnly: { kind: 'boolean' },
    createdAt: { kind: 'date' },
  },
};

export function registerPromotionCodeRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotion-codes',
      summary: 'Creates a redeemable code for a promotion',
      tags,
      body: createPromotionCodeSchema,
      response: promotionCodeSchema,
      errors: [409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const promotion = await db.promotion.findFirst({ where: { id: body.promotionId, ...scope } });
      if (!promotion) throw notFound('Promotion');
      const code = await db.promotionCode.create({
        data: {
          id: newId('promotionCode'),
          ...scope,
          promotionId: promotion.id,
          code: body.code,
          usageLimit: body.usageLimit ?? null,
          active: body.active ?? true,
          firstTimeCustomersOnly: body.firstTimeCustomersOnly ?? false,
        },
      });
      return toPublicPromotionCode(code);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotion-codes/list',
      summary: 'Lists promotion codes',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(promotionCodeSchema, 'PromotionCodeList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, codeList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.PromotionCodeWhereInput;
      const [rows, total] = await Promise.all([
        db.promotionCode.findMany({
          where,
          orderBy: query.orderBy as Prisma.PromotionCodeOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
        }),
        db.promotionCode.count({ where }),
      ]);
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
      tags,
      body: updatePromotionCodeSchema,
      response: promotionCodeSchema,
      errors: [409],
    },
    async ({ body, req }) => {
      const existing = await db.promotionCode.findFirst({ where: { id: body.id, ...scopeOf(req) } });
      if (!existing) throw notFound('Promotion code');
      return toPublicPromotionCode(await db.promotionCode.update({ where: { id: existing.id }, data: body.data }));
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/promotion-codes/:promotionCodeId',
      summary: 'Retrieves a promotion code',
      tags,
      params: promotionCodeParams,
      response: promotionCodeSchema,
    },
    async ({ params, req }) => {
      const code = await db.promotionCode.findFirst({ where: { id: params.promotionCodeId, ...scopeOf(req) } });
      if (!code) throw notFound('Promotion code');
      return toPublicPromotionCode(code);
    },
  );
}
