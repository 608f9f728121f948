import { z } from 'zod';
import {
  findPaymentInstrument,
  instrumentsOfCustomer,
  listPaymentInstruments,
  paymentInstrumentList,
  tokenizeCard,
  updatePaymentInstrument,
} from '../../commerce/paymentInstruments';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  createPaymentInstrumentSchema,
  customerInstrumentsParams,
  paymentInstrumentParams,
  paymentInstrumentSchema,
  toPublicPaymentInstrument,
  updatePaymentInstrumentSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['payment-instruments'];

export function registerPaymentInstrumentRoutes({ publicRouter }: Routers, { db, config }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-instruments',
      summary: 'Tokenizes a card for a customer: the PAN is encrypted at rest, the CVC is never stored',
      description:
        "Stores a card for a customer and answers a payment instrument (pi_…) to pay with; the number is encrypted at rest and only brand, BIN, last 4 and expiry are shown. The sandbox's test card numbers decide test payments' outcomes.",
      tags,
      body: createPaymentInstrumentSchema,
      example: {
        customerId: 'cus_3HdP0sVb6YkR2wQe9LmT',
        card: {
          number: '4242 4242 4242 4242',
          expMonth: 12,
          expYear: 2030,
          cvc: '123',
          cardholderName: 'Ada Lovelace',
        },
      },
      response: paymentInstrumentSchema,
    },
    async ({ body, req }) => toPublicPaymentInstrument(await tokenizeCard(db, config, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-instruments/list',
      summary: 'Lists payment instruments (filters customerId, brand, last4, createdAt)',
      description: "The account's stored cards with offset pagination and filters (customer, brand, last 4).",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(paymentInstrumentSchema, 'PaymentInstrumentList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, paymentInstrumentList);
      const { rows, total } = await listPaymentInstruments(db, scopeOf(req), query);
      return { data: rows.map(toPublicPaymentInstrument), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-instruments/update',
      summary: 'Updates a card instrument (expiry after reissue, cardholder name)',
      description:
        "Changes a stored card's expiry (after the issuer reissued it) or cardholder name; the number cannot change: store the new card instead.",
      tags,
      body: updatePaymentInstrumentSchema,
      example: { id: 'pi_7GtN4cXz1RqW8eLp5VyB', data: { expMonth: 3, expYear: 2031 } },
      response: paymentInstrumentSchema,
    },
    async ({ body, req }) =>
      toPublicPaymentInstrument(await updatePaymentInstrument(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/payment-instruments/:paymentInstrumentId',
      summary: 'Retrieves a payment instrument',
      description: 'One stored card: brand, BIN, last 4, expiry, issuing country, fingerprint (never the number).',
      tags,
      params: paymentInstrumentParams,
      response: paymentInstrumentSchema,
    },
    async ({ params, req }) =>
      toPublicPaymentInstrument(await findPaymentInstrument(db, scopeOf(req), params.paymentInstrumentId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/customers/:customerId/payment-instruments',
      summary: "Lists a customer's payment instruments, newest first",
      description: "The customer's stored cards, newest first; use it to offer a returning customer their saved cards.",
      tags,
      params: customerInstrumentsParams,
      response: z.object({ data: z.array(paymentInstrumentSchema) }),
    },
    async ({ params, req }) => ({
      data: (await instrumentsOfCustomer(db, scopeOf(req), params.customerId)).map(toPublicPaymentInstrument),
    }),
  );
}
