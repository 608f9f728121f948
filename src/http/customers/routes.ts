import type { Db, Prisma } from '../../db/prisma';
import { createCustomer, updateCustomer } from '../../commerce/customers';
import { scopeOf, type Scope } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import { findStore } from '../stores/routes';
import {
  createCustomerSchema,
  customerParams,
  customerSchema,
  toPublicCustomer,
  updateCustomerSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['customers'];

const customerList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', email: 'email', lastName: 'lastName', firstName: 'firstName', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    email: { kind: 'string', lowerCase: true },
    firstName: { kind: 'string' },
    lastName: { kind: 'string' },
    phone: { kind: 'string' },
    externalRef: { kind: 'string' },
    storeId: { kind: 'id', prefix: 'store' },
    createdAt: { kind: 'date' },
  },
};

/** A customer of the caller's account and mode, or 404. */
export async function findCustomer(db: Db | Prisma.TransactionClient, scope: Scope, customerId: string) {
  const customer = await db.customer.findFirst({ where: { id: customerId, ...scope } });
  if (!customer) throw notFound('Customer');
  return customer;
}

export function registerCustomerRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/customers',
      summary: 'Creates a customer (409 CUSTOMER_EMAIL_EXISTS when its store has the e-mail)',
      tags,
      body: createCustomerSchema,
      response: customerSchema,
      errors: [409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      if (body.storeId) await findStore(db, scope, body.storeId);
      const customer = await createCustomer(db, scope, body.storeId ?? null, body);
      return toPublicCustomer(customer);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/customers/list',
      summary:
        'Lists customers (offset pagination; filters email, firstName, lastName, phone, externalRef, storeId, createdAt)',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(customerSchema, 'CustomerList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, customerList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.CustomerWhereInput;
      const [rows, total] = await Promise.all([
        db.customer.findMany({
          where,
          orderBy: query.orderBy as Prisma.CustomerOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
        }),
        db.customer.count({ where }),
      ]);
      return { data: rows.map(toPublicCustomer), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/customers/update',
      summary: 'Updates a customer',
      tags,
      body: updateCustomerSchema,
      response: customerSchema,
      errors: [409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const existing = await findCustomer(db, scope, body.id);
      const customer = await updateCustomer(db, existing, scope, body.data);
      return toPublicCustomer(customer);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/customers/:customerId',
      summary: 'Retrieves a customer',
      tags,
      params: customerParams,
      response: customerSchema,
    },
    async ({ params, req }) => toPublicCustomer(await findCustomer(db, scopeOf(req), params.customerId)),
  );
}
