import type { Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import { findStore } from '../stores/routes';
import {
  createPromotionSchema,
  promotionParams,
  promotionSchema,
  toPublicPromotion,
  updatePromotionSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['promotions'];

const promotionList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', name: 'name', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    name: { kind: 'string' },
    storeId: { kind: 'id', prefix: 'store' },
    active: { kind: 'boolean' },
    discountType: { kind: 'enum', values: ['percentage', 'fixed_amount'] },
    createdAt: { kind: 'date' },
  },
};

/** Picks only what the row needs: a pick, so the public shape never grows by accident. */
const publicFields = {
  id: true,
  storeId: true,
  name: true,
  discountType: true,
  percentBasisPoints: true,
  amountOff: true,
  currency: true,
  active: true,
  mode: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.PromotionSelect;

export function registerPromotionRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotions',
      summary: 'Creates a promotion (percentage in basis points, or a fixed amount in one currency)',
      tags,
      body: createPromotionSchema,
      response: promotionSchema,
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      await findStore(db, scope, body.storeId);
      const promotion = await db.promotion.create({
        data: {
          id: newId('promotion'),
          ...scope,
          storeId: body.storeId,
          name: body.name,
          discountType: body.discountType,
          percentBasisPoints: body.percentBasisPoints ?? null,
          amountOff: body.amountOff ?? null,
          currency: body.currency ?? null,
          active: body.active ?? true,
        },
        select: publicFields,
      });
      return toPublicPromotion(promotion);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/promotions/list',
      summary: 'Lists promotions',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(promotionSchema, 'PromotionList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, promotionList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.PromotionWhereInput;
      const [rows, total] = await Promise.all([
        db.promotion.findMany({
          where,
          orderBy: query.orderBy as Prisma.PromotionOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
          select: publicFields,
        }),
        db.promotion.count({ where }),
      ]);
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
      tags,
      body: updatePromotionSchema,
      response: promotionSchema,
    },
    async ({ body, req }) => {
      const existing = await db.promotion.findFirst({ where: { id: body.id, ...scopeOf(req) } });
      if (!existing) throw notFound('Promotion');
      return toPublicPromotion(
        await db.promotion.update({ where: { id: existing.id }, data: body.data, select: publicFields }),
      );
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/promotions/:promotionId',
      summary: 'Retrieves a promotion',
      tags,
      params: promotionParams,
      response: promotionSchema,
    },
    async ({ params, req }) => {
      const promotion = await db.promotion.findFirst({
        where: { id: params.promotionId, ...scopeOf(req) },
        select: publicFields,
      });
      if (!promotion) throw notFound('Promotion');
      return toPublicPromotion(promotion);
    },
  );
}
