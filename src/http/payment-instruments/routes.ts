import type { Prisma } from '../../db/prisma';
import { cardBrandOf, hasValidLengthForBrand, issuingCountryOf } from '../../domain/cardBrand';
import { newId } from '../../domain/ids';
import { isExpiryInFuture, passesLuhn } from '../../domain/luhn';
import { scopeOf } from '../auth/scope';
import { encryptPan, panFingerprint } from '../../vault/cardVault';
import type { AppDeps } from '../core/context';
import { badRequest, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { findCustomer } from '../customers/routes';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import {
  createPaymentInstrumentSchema,
  customerInstrumentsParams,
  paymentInstrumentParams,
  paymentInstrumentSchema,
  toPublicPaymentInstrument,
  updatePaymentInstrumentSchema,
} from './validators';
import { z } from 'zod';

const basePath = '/api/public/v1';
const tags = ['payment-instruments'];

const instrumentList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    customerId: { kind: 'id', prefix: 'cus' },
    brand: { kind: 'string' },
    last4: { kind: 'string' },
    createdAt: { kind: 'date' },
  },
};

function assertNotExpired(expMonth: number, expYear: number): void {
  if (!isExpiryInFuture(expMonth, expYear, new Date()))
    throw badRequest('Card has expired: expiry must be this month or later', 'CARD_EXPIRED');
}

export function registerPaymentInstrumentRoutes({ publicRouter }: Routers, { db, config }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-instruments',
      summary: 'Tokenizes a card for a customer: the PAN is encrypted at rest, the CVC is never stored',
      tags,
      body: createPaymentInstrumentSchema,
      response: paymentInstrumentSchema,
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const { number: pan, expMonth, expYear, cardholderName } = body.card;
      if (!passesLuhn(pan) || !hasValidLengthForBrand(pan))
        throw badRequest(
          'Card number is not valid (failed the Luhn check or has a wrong length)',
          'INVALID_CARD_NUMBER',
        );
      assertNotExpired(expMonth, expYear);
      const customer = await findCustomer(db, scope, body.customerId);
      const instrument = await db.paymentInstrument.create({
        data: {
          id: newId('paymentInstrument'),
          ...scope,
          customerId: customer.id,
          brand: cardBrandOf(pan),
          last4: pan.slice(-4),
          bin: pan.slice(0, 6),
          expMonth,
          expYear,
          issuingCountry: issuingCountryOf(pan),
          cardholderName: cardholderName ?? null,
          encryptedPan: encryptPan(pan, config),
          fingerprint: panFingerprint(pan, config),
        },
      });
      return toPublicPaymentInstrument(instrument);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-instruments/list',
      summary: 'Lists payment instruments (filters customerId, brand, last4, createdAt)',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(paymentInstrumentSchema, 'PaymentInstrumentList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, instrumentList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.PaymentInstrumentWhereInput;
      const [rows, total] = await Promise.all([
        db.paymentInstrument.findMany({
          where,
          orderBy: query.orderBy as Prisma.PaymentInstrumentOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
        }),
        db.paymentInstrument.count({ where }),
      ]);
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
      tags,
      body: updatePaymentInstrumentSchema,
      response: paymentInstrumentSchema,
    },
    async ({ body, req }) => {
      const existing = await db.paymentInstrument.findFirst({ where: { id: body.id, ...scopeOf(req) } });
      if (!existing) throw notFound('Payment instrument');
      assertNotExpired(body.data.expMonth ?? existing.expMonth, body.data.expYear ?? existing.expYear);
      const instrument = await db.paymentInstrument.update({ where: { id: existing.id }, data: body.data });
      return toPublicPaymentInstrument(instrument);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/payment-instruments/:paymentInstrumentId',
      summary: 'Retrieves a payment instrument',
      tags,
      params: paymentInstrumentParams,
      response: paymentInstrumentSchema,
    },
    async ({ params, req }) => {
      const instrument = await db.paymentInstrument.findFirst({
        where: { id: params.paymentInstrumentId, ...scopeOf(req) },
      });
      if (!instrument) throw notFound('Payment instrument');
      return toPublicPaymentInstrument(instrument);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/customers/:customerId/payment-instruments',
      summary: "Lists a customer's payment instruments, newest first",
      tags,
      params: customerInstrumentsParams,
      response: z.object({ data: z.array(paymentInstrumentSchema) }),
    },
    async ({ params, req }) => {
      const scope = scopeOf(req);
      const customer = await findCustomer(db, scope, params.customerId);
      const rows = await db.paymentInstrument.findMany({
        where: { customerId: customer.id, ...scope },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return { data: rows.map(toPublicPaymentInstrument) };
    },
  );
}
