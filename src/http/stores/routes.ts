import type { Db, Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf, type Scope } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { ApiError, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import { createStoreSchema, storeParams, storeSchema, toPublicStore, updateStoreSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['stores'];

const storeList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', name: 'name', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: { name: { kind: 'string' }, baseCurrency: { kind: 'string' }, createdAt: { kind: 'date' } },
};

/** A store of the caller's account and mode, or 404. */
export async function findStore(db: Db | Prisma.TransactionClient, scope: Scope, storeId: string) {
  const store = await db.store.findFirst({ where: { id: storeId, ...scope } });
  if (!store) throw notFound('Store');
  return store;
}

/** A default payment flow must be one of the caller's own flows in the same mode; otherwise 404 naming the field. */
async function assertPaymentFlowInScope(db: Db, scope: Scope, flowId: string | null | undefined): Promise<void> {
  if (!flowId) return;
  const flow = await db.paymentFlow.findFirst({ where: { id: flowId, ...scope }, select: { id: true } });
  if (!flow)
    throw new ApiError(
      404,
      'PAYMENT_FLOW_NOT_FOUND',
      'defaultPaymentFlowId: payment flow not found in this account and mode',
    );
}

/** Presentment currencies always include the base currency. */
function withBase(base: string, presentment: string[] | undefined): string[] {
  return [...new Set([base, ...(presentment ?? [])])];
}

export function registerStoreRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/stores',
      summary: 'Creates a store (defaultPaymentFlowId must be a flow of the account and mode)',
      tags,
      body: createStoreSchema,
      response: storeSchema,
      errors: [404],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      await assertPaymentFlowInScope(db, scope, body.defaultPaymentFlowId);
      const store = await db.store.create({
        data: {
          id: newId('store'),
          ...scope,
          name: body.name,
          baseCurrency: body.baseCurrency,
          presentmentCurrencies: withBase(body.baseCurrency, body.presentmentCurrencies),
          defaultPaymentFlowId: body.defaultPaymentFlowId ?? null,
        },
      });
      return toPublicStore(store);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/stores/list',
      summary: 'Lists stores (offset pagination, filters)',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(storeSchema, 'StoreList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, storeList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.StoreWhereInput;
      const [rows, total] = await Promise.all([
        db.store.findMany({
          where,
          orderBy: query.orderBy as Prisma.StoreOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
        }),
        db.store.count({ where }),
      ]);
      return { data: rows.map(toPublicStore), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/stores/update',
      summary: 'Updates a store',
      tags,
      body: updateStoreSchema,
      response: storeSchema,
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const existing = await findStore(db, scope, body.id);
      await assertPaymentFlowInScope(db, scope, body.data.defaultPaymentFlowId);
      const baseCurrency = body.data.baseCurrency ?? existing.baseCurrency;
      const presentment =
        body.data.presentmentCurrencies ?? (body.data.baseCurrency ? existing.presentmentCurrencies : undefined);
      const store = await db.store.update({
        where: { id: existing.id },
        data: {
          name: body.data.name,
          baseCurrency,
          presentmentCurrencies: presentment ? withBase(baseCurrency, presentment) : undefined,
          defaultPaymentFlowId: body.data.defaultPaymentFlowId,
        },
      });
      return toPublicStore(store);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/stores/:storeId',
      summary: 'Retrieves a store',
      tags,
      params: storeParams,
      response: storeSchema,
    },
    async ({ params, req }) => toPublicStore(await findStore(db, scopeOf(req), params.storeId)),
  );
}
