import { createProduct, findProduct, listProducts, productList, updateProduct } from '../../commerce/products';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import { registerPriceRoutes } from './priceRoutes';
import { createProductSchema, productParams, productSchema, toPublicProduct, updateProductSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['products'];

export function registerProductRoutes(routers: Routers, deps: AppDeps): void {
  const { publicRouter } = routers;
  const { db } = deps;
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/products',
      summary: 'Creates a product with its variants and prices',
      description:
        'Creates a product in a store with its variants and their prices (integer minor units). Prices are what checkout sessions, subscriptions and offers refer to.',
      tags,
      body: createProductSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        name: 'Espresso beans, 1 kg',
        description: 'Single-origin, roasted weekly',
        isShippable: true,
        weightGrams: 1000,
        variants: [
          {
            name: 'Whole bean',
            sku: 'ESP-1KG-WB',
            prices: [
              { unitAmount: 2490, currency: 'EUR', type: 'one_time' },
              { unitAmount: 2190, currency: 'EUR', type: 'recurring', interval: 'month', intervalCount: 1 },
            ],
          },
        ],
      },
      response: productSchema,
    },
    async ({ body, req }) => toPublicProduct(await createProduct(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/products/list',
      summary: 'Lists products with variants and prices',
      description: "The account's products with their variants and prices, with offset pagination and filters.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(productSchema, 'ProductList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, productList);
      const { rows, total } = await listProducts(db, scopeOf(req), query);
      return { data: rows.map(toPublicProduct), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/products/:productId',
      summary: 'Retrieves a product',
      description: 'One product with its variants and prices.',
      tags,
      params: productParams,
      response: productSchema,
    },
    async ({ params, req }) => toPublicProduct(await findProduct(db, scopeOf(req), params.productId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'put',
      path: '/products/:productId',
      summary:
        'Updates a product: name, description, active, tax (isTaxable, taxCode) and shipping (isShippable, weightGrams)',
      description:
        "Changes a product's own fields (name, description, active, tax and shipping details); prices are added and deactivated through /prices.",
      tags,
      params: productParams,
      body: updateProductSchema,
      example: { updatedData: { name: 'Espresso beans, 1 kg (new roast)', active: true } },
      response: productSchema,
    },
    async ({ params, body, req }) =>
      toPublicProduct(await updateProduct(db, scopeOf(req), params.productId, body.updatedData)),
  );
  registerPriceRoutes(routers, deps);
}
