import type { Request, Response } from 'express';
import { scopeOf } from '../auth/scope';
import { findStoreOfScope } from '../../commerce/storeOfScope';
import { findPaymentDetail, listPayments } from '../../payments/queries';
import { directPaymentInput } from '../../payments/paymentInputs';
import { paymentRunDeps, runPayment } from '../../payments/startPayment';
import { baseUrlSeenBy } from '../../threeds/returnLink';
import { authOf } from '../auth/authenticate';
import { beforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { forbidden } from '../../errors';
import { defineRoute } from '../core/route';
import { keyedBusinessId } from '../idempotency/middleware';
import {
  buildListQuery,
  listRequestExample,
  listRequestSchema,
  listResponseSchema,
  pageInfo,
  type ListDefinition,
} from '../lists';
import type { Routers } from '../routes';
import { answerPayment } from './answer';
import { registerPaymentFollowUpRoutes, runCaptureRequest } from './followUpRoutes';
import { paymentParams, processPaymentSchema, type ProcessPaymentBody } from './validators';
import {
  paymentDetailSchema,
  paymentSchema,
  processPaymentResponseSchema,
  toPublicDispute,
  toPublicPayment,
} from './views';

const publicBase = '/api/public/v1';
const processingBase = '/api/processing/v1';
const tags = ['payments'];

const paymentList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', amount: 'amount', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    status: {
      kind: 'enum',
      values: [
        'processing',
        'requires_action',
        'authorized',
        'succeeded',
        'failed',
        'canceled',
        'refunded',
        'partially_refunded',
      ],
    },
    currency: { kind: 'string' },
    amount: { kind: 'number' },
    storeId: { kind: 'id', prefix: 'store' },
    customerId: { kind: 'id', prefix: 'cus' },
    orderId: { kind: 'id', prefix: 'ord' },
    subscriptionId: { kind: 'id', prefix: 'sub' },
    checkoutSessionId: { kind: 'id', prefix: 'ch' },
    processorId: { kind: 'id', prefix: 'proc' },
    paymentFlowId: { kind: 'id', prefix: 'flow' },
    intent: { kind: 'enum', values: ['purchase', 'auth'] },
    declineCode: { kind: 'string' },
    createdAt: { kind: 'date' },
  },
};

export function registerPaymentRoutes(routers: Routers, deps: AppDeps): void {
  const { publicRouter, processingRouter } = routers;
  const { db } = deps;
  const processSpec = {
    method: 'post' as const,
    path: '/payments/process',
    summary:
      'Processes a payment: purchase (authorize + capture), auth (authorize only) or capture (of an authorized payment)',
    description:
      "Charges a stored card outside checkout (a phone order, an invoice): intent purchase, auth, or capture of an earlier auth (`mode` is accepted as intent's older name on this operation). The card is paymentInstrumentId, or its alias paymentMethodId (the subscriptions API's name). Without paymentFlowId the store's default flow is used. Send an Idempotency-Key so a retry cannot charge twice.",
    tags,
    body: processPaymentSchema,
    example: {
      storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
      customerId: 'cus_3HdP0sVb6YkR2wQe9LmT',
      paymentInstrumentId: 'pi_7GtN4cXz1RqW8eLp5VyB',
      amount: 2500,
      currency: 'EUR',
      intent: 'purchase',
      customerIp: '203.0.113.7',
    } as const,
    response: processPaymentResponseSchema,
    otherResponseStatuses: [202],
    errors: [402, 404, 409],
  };
  defineRoute(publicRouter, publicBase, processSpec, ({ body, req, res }) => processPayment(deps, body, req, res));
  defineRoute(processingRouter, processingBase, processSpec, ({ body, req, res }) =>
    processPayment(deps, body, req, res),
  );

  defineRoute(
    publicRouter,
    publicBase,
    {
      method: 'post',
      path: '/payments/list',
      summary: 'Lists payments (offset pagination, filters)',
      description:
        "The account's payments with offset pagination and filters (status, amount, store, customer, order, subscription, processor, decline code, date); use it for reconciliation. `subscriptionId` gives every charge of one subscription (first, renewals, retries, switches), declined ones too.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(paymentSchema, 'PaymentList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, paymentList);
      const { rows, total } = await listPayments(db, scopeOf(req), query);
      return { data: rows.map(toPublicPayment), pagination: pageInfo(query, total) };
    },
  );

  const getSpec = {
    method: 'get' as const,
    path: '/payments/:paymentId',
    summary: 'Retrieves a payment with its attempts, refunds and disputes',
    description:
      'One payment with every processor attempt, its refunds and disputes. Poll it after a 202 until the status is final.',
    tags,
    params: paymentParams,
    response: paymentDetailSchema,
  };
  const getPayment = async (paymentId: string, req: Request) => {
    const auth = authOf(req);
    const storeIds = auth.kind === 'processing' ? (auth.storeIds ?? []) : undefined;
    const payment = await findPaymentDetail(db, scopeOf(req), paymentId, storeIds);
    return {
      ...toPublicPayment(payment),
      attempts: payment.attempts.map((a) => ({ ...a, createdAt: a.createdAt.toISOString(), paymentId: undefined })),
      refunds: payment.refunds.map((r) => ({
        id: r.id,
        amount: r.amount,
        currency: r.currency,
        status: r.status,
        reason: r.reason,
        failureCode: r.failureCode,
        createdAt: r.createdAt.toISOString(),
      })),
      disputes: payment.disputes.map(toPublicDispute),
    };
  };
  defineRoute(publicRouter, publicBase, getSpec, ({ params, req }) => getPayment(params.paymentId, req));
  defineRoute(processingRouter, processingBase, getSpec, ({ params, req }) => getPayment(params.paymentId, req));

  registerPaymentFollowUpRoutes(routers, deps);
}

async function processPayment(deps: AppDeps, body: ProcessPaymentBody, req: Request, res: Response) {
  const auth = authOf(req);
  const scope = scopeOf(req);
  const store = await beforeWork(async () => {
    // A processing key acts only on the stores of its processing account (docs/api-keys.md).
    if (auth.kind === 'processing' && !(auth.storeIds ?? []).includes(body.storeId)) {
      throw forbidden('This processing key may not process payments for this store', 'STORE_NOT_ALLOWED');
    }
    return findStoreOfScope(deps.db, scope, body.storeId);
  });
  if (body.intent === 'capture')
    return runCaptureRequest(deps, req, {
      storeId: store.id,
      paymentId: body.paymentId,
      orderId: body.orderId,
      amount: body.amount,
    });

  const { intent } = body;
  const paymentId = keyedBusinessId(req, 'payment', 'process');
  const input = await beforeWork(() =>
    directPaymentInput(deps.db, scope, {
      ...body,
      paymentId,
      store,
      // The schema requires these for purchase and auth.
      customerId: body.customerId!,
      amount: body.amount!,
      currency: body.currency!,
      intent,
      returnBaseUrl: baseUrlSeenBy(req),
    }),
  );
  return answerPayment(res, await runPayment(paymentRunDeps(deps), input));
}
