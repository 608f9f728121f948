import { createStore, findStore, listStores, storeList, updateStore } from '../../commerce/stores';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import { createStoreSchema, storeParams, storeSchema, toPublicStore, updateStoreSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['stores'];

export function registerStoreRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/stores',
      summary: 'Creates a store (defaultPaymentFlowId must be a flow of the account and mode)',
      description:
        'Creates a store: its base and presentment currencies and, optionally, the payment flow its payments use when they name none. Most other resources belong to a store.',
      tags,
      body: createStoreSchema,
      example: {
        name: 'Demo Coffee Roasters',
        baseCurrency: 'EUR',
        presentmentCurrencies: ['EUR', 'USD'],
        defaultPaymentFlowId: 'flow_9QwE4rTy7UiO2pAs5DfG',
      },
      response: storeSchema,
      errors: [404],
    },
    async ({ body, req }) => toPublicStore(await createStore(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/stores/list',
      summary: 'Lists stores (offset pagination, filters)',
      description: "The account's stores in the key's mode, with offset pagination, filters and sorting.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(storeSchema, 'StoreList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, storeList);
      const { rows, total } = await listStores(db, scopeOf(req), query);
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
      description:
        "Changes a store's name, currencies or default payment flow (`{id, data}`). The new default flow applies to payments made from then on.",
      tags,
      body: updateStoreSchema,
      example: { id: 'store_8fK2mQ9xLr4TnB7vW1cZ', data: { defaultPaymentFlowId: 'flow_9QwE4rTy7UiO2pAs5DfG' } },
      response: storeSchema,
    },
    async ({ body, req }) => toPublicStore(await updateStore(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/stores/:storeId',
      summary: 'Retrieves a store',
      description: 'One store of the account, with its currencies and default payment flow.',
      tags,
      params: storeParams,
      response: storeSchema,
    },
    async ({ params, req }) => toPublicStore(await findStore(db, scopeOf(req), params.storeId)),
  );
}
