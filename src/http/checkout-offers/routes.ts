import type { Db, Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf, type Scope } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { badRequest, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import { findStore } from '../stores/routes';
import {
  checkoutOfferParams,
  checkoutOfferSchema,
  createCheckoutOfferSchema,
  offerTypes,
  updateCheckoutOfferSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['checkout-offers'];

const offerList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    storeId: { kind: 'id', prefix: 'store' },
    type: { kind: 'enum', values: offerTypes },
    active: { kind: 'boolean' },
    createdAt: { kind: 'date' },
  },
};

type OfferRow = Awaited<ReturnType<Db['checkoutOffer']['findFirstOrThrow']>>;
type LineItem = { priceId: string; quantity: number };

/** Prices and promotions an offer names must exist in the same store, account and mode. */
async function assertReferences(
  db: Db,
  scope: Scope,
  storeId: string,
  lineItems: LineItem[] | undefined,
  promotionIds: string[] | undefined,
) {
  if (lineItems) {
    const ids = [...new Set(lineItems.map((item) => item.priceId))];
    const found = await db.price.count({ where: { ...scope, id: { in: ids }, variant: { product: { storeId } } } });
    if (found !== ids.length)
      throw badRequest('Every lineItems[].priceId must be a price of this store', 'PRICE_NOT_FOUND');
  }
  if (promotionIds) {
    const ids = [...new Set(promotionIds)];
    const found = await db.promotion.count({ where: { ...scope, id: { in: ids }, storeId } });
    if (found !== ids.length)
      throw badRequest('Every promotionIds[] entry must be a promotion of this store', 'PROMOTION_NOT_FOUND');
  }
}

/** The offer with its line items priced and its promotions expanded. */
async function present(db: Db, offer: OfferRow) {
  const lineItems = offer.lineItems as LineItem[];
  const [prices, promotions] = await Promise.all([
    db.price.findMany({
      where: { id: { in: lineItems.map((item) => item.priceId) } },
      include: { variant: { include: { product: true } } },
    }),
    db.promotion.findMany({ where: { id: { in: offer.promotionIds } } }),
  ]);
  return {
    id: offer.id,
    storeId: offer.storeId,
    type: offer.type,
    titleTrans: offer.titleTrans as Record<string, string>,
    lineItems: lineItems.map((item) => {
      const price = prices.find((candidate) => candidate.id === item.priceId);
      return {
        priceId: item.priceId,
        quantity: item.quantity,
        unitAmount: price?.unitAmount ?? null,
        currency: price?.currency ?? null,
        productName: price?.variant.product.name ?? null,
      };
    }),
    promotionIds: offer.promotionIds,
    promotions: offer.promotionIds.flatMap((id) => {
      const promotion = promotions.find((candidate) => candidate.id === id);
      if (!promotion) return [];
      const { name, discountType, percentBasisPoints, amountOff, currency, active } = promotion;
      return [{ id, name, discountType, percentBasisPoints, amountOff, currency, active }];
    }),
    active: offer.active,
    mode: offer.mode,
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.updatedAt.toISOString(),
  };
}

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
    async ({ body, req }) => {
      const scope = scopeOf(req);
      await findStore(db, scope, body.storeId);
      await assertReferences(db, scope, body.storeId, body.lineItems, body.promotionIds);
      const offer = await db.checkoutOffer.create({
        data: {
          id: newId('checkoutOffer'),
          ...scope,
          storeId: body.storeId,
          type: body.type,
          titleTrans: body.titleTrans,
          lineItems: body.lineItems,
          promotionIds: body.promotionIds ?? [],
          active: body.active ?? true,
        },
      });
      return present(db, offer);
    },
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
      const query = buildListQuery(body, offerList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.CheckoutOfferWhereInput;
      const [rows, total] = await Promise.all([
        db.checkoutOffer.findMany({
          where,
          orderBy: query.orderBy as Prisma.CheckoutOfferOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
        }),
        db.checkoutOffer.count({ where }),
      ]);
      return { data: await Promise.all(rows.map((row) => present(db, row))), pagination: pageInfo(query, total) };
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
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const existing = await db.checkoutOffer.findFirst({ where: { id: body.id, ...scope } });
      if (!existing) throw notFound('Checkout offer');
      await assertReferences(db, scope, existing.storeId, body.data.lineItems, body.data.promotionIds);
      return present(db, await db.checkoutOffer.update({ where: { id: existing.id }, data: body.data }));
    },
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
    async ({ params, req }) => {
      const offer = await db.checkoutOffer.findFirst({ where: { id: params.id, ...scopeOf(req) } });
      if (!offer) throw notFound('Checkout offer');
      return present(db, offer);
    },
  );
}
