import { createCustomer, customerList, findCustomer, listCustomers, updateCustomer } from '../../commerce/customers';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  createCustomerSchema,
  customerParams,
  customerSchema,
  toPublicCustomer,
  updateCustomerSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['customers'];

export function registerCustomerRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/customers',
      summary: 'Creates a customer (409 CUSTOMER_EMAIL_EXISTS when its store has the e-mail)',
      description:
        'Creates a customer of the account, optionally tied to a store (e-mail unique per store). Payments, cards and subscriptions name a customer.',
      tags,
      body: createCustomerSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '+44 20 7946 0000',
        externalRef: 'crm-10042',
      },
      response: customerSchema,
      errors: [409],
    },
    async ({ body, req }) => toPublicCustomer(await createCustomer(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/customers/list',
      summary:
        'Lists customers (offset pagination; filters email, firstName, lastName, phone, externalRef, storeId, createdAt)',
      description:
        "The account's customers with offset pagination and filters; find a customer by e-mail or external reference here.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(customerSchema, 'CustomerList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, customerList);
      const { rows, total } = await listCustomers(db, scopeOf(req), query);
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
      description: "Changes a customer's details (`{id, data}`): name, e-mail, phone, external reference.",
      tags,
      body: updateCustomerSchema,
      example: { id: 'cus_3HdP0sVb6YkR2wQe9LmT', data: { phone: '+44 20 7946 0001' } },
      response: customerSchema,
      errors: [409],
    },
    async ({ body, req }) => toPublicCustomer(await updateCustomer(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/customers/:customerId',
      summary: 'Retrieves a customer',
      description: 'One customer of the account.',
      tags,
      params: customerParams,
      response: customerSchema,
    },
    async ({ params, req }) => toPublicCustomer(await findCustomer(db, scopeOf(req), params.customerId)),
  );
}
