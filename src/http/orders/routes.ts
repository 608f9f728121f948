import type { Prisma } from '../../db/prisma';
import { paymentsOfOrder } from '../../payments/orderPayments';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import { orderParams, orderSchema, orderStatuses, orderWithPaymentsSchema, toPublicOrder } from './validators';

const basePath = '/api/public/v1';
const tags = ['orders'];

const orderList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', totalAmount: 'totalAmount', status: 'status', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    status: { kind: 'enum', values: orderStatuses },
    currency: { kind: 'string' },
    storeId: { kind: 'id', prefix: 'store' },
    customerId: { kind: 'id', prefix: 'cus' },
    customerEmail: { kind: 'string', path: ['customer', 'email'], lowerCase: true },
    totalAmount: { kind: 'number' },
    source: { kind: 'string' },
    createdAt: { kind: 'date' },
  },
};

const orderInclude = {
  customer: true,
  items: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.OrderInclude;

export function registerOrderRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/orders/list',
      summary:
        'Lists orders (offset pagination; filters status, currency, storeId, customerId, customerEmail, totalAmount, source, createdAt)',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(orderSchema, 'OrderList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, orderList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.OrderWhereInput;
      const [rows, total] = await Promise.all([
        db.order.findMany({
          where,
          orderBy: query.orderBy as Prisma.OrderOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
          include: orderInclude,
        }),
        db.order.count({ where }),
      ]);
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
      tags,
      params: orderParams,
      response: orderWithPaymentsSchema,
    },
    async ({ params, req }) => {
      const order = await db.order.findFirst({ where: { id: params.orderId, ...scopeOf(req) }, include: orderInclude });
      if (!order) throw notFound('Order');
      const payments = await paymentsOfOrder(db, order);
      return { order: { ...toPublicOrder(order), payments } };
    },
  );
}
