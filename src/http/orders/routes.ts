import { findOrderWithPayments, listOrders, orderList } from '../../commerce/orders';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import { orderParams, orderSchema, orderWithPaymentsSchema, toPublicOrder } from './validators';

const basePath = '/api/public/v1';
const tags = ['orders'];

export function registerOrderRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/orders/list',
      summary:
        'Lists orders (offset pagination; filters status, currency, storeId, customerId, customerEmail, totalAmount, source, subscriptionId, createdAt)',
      description:
        "The account's orders with offset pagination and filters (status, store, customer, total, source, subscription, date). `subscriptionId` gives the orders of one subscription's paid charges.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(orderSchema, 'OrderList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, orderList);
      const { rows, total } = await listOrders(db, scopeOf(req), query);
      return { data: rows.map(toPublicOrder), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/orders/:orderId',
      summary: 'Retrieves an order with its line items, customer and payments',
      description: 'One order with its line items, customer and payments; use it for fulfilment after s_order_paid.',
      tags,
      params: orderParams,
      response: orderWithPaymentsSchema,
    },
    async ({ params, req }) => {
      const { order, payments } = await findOrderWithPayments(db, scopeOf(req), params.orderId);
      return { order: { ...toPublicOrder(order), payments } };
    },
  );
}
