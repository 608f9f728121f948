import { z } from 'zod';
import { createPaymentFlow, findPaymentFlow, listPaymentFlows, updatePaymentFlow } from '../../payments/paymentFlows';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import {
  createPaymentFlowSchema,
  paymentFlowParams,
  paymentFlowSchema,
  toPublicPaymentFlow,
  updatePaymentFlowSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['payment-flows'];

export function registerPaymentFlowRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/payment-flows',
      summary: 'Lists the payment flows of the account',
      tags,
      response: z.array(paymentFlowSchema),
    },
    async ({ req }) => (await listPaymentFlows(db, scopeOf(req))).map(toPublicPaymentFlow),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-flows',
      summary: 'Creates a payment flow',
      tags,
      adminOnly: true,
      body: createPaymentFlowSchema,
      response: paymentFlowSchema,
    },
    async ({ body, req }) => toPublicPaymentFlow(await createPaymentFlow(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-flows/update',
      summary: 'Updates a payment flow (fallbackProcessorConfigs required)',
      tags,
      adminOnly: true,
      body: updatePaymentFlowSchema,
      response: paymentFlowSchema,
    },
    async ({ body, req }) => toPublicPaymentFlow(await updatePaymentFlow(db, scopeOf(req), body.flowId, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/payment-flows/:flowId',
      summary: 'Retrieves a payment flow',
      tags,
      params: paymentFlowParams,
      response: paymentFlowSchema,
    },
    async ({ params, req }) => toPublicPaymentFlow(await findPaymentFlow(db, scopeOf(req), params.flowId)),
  );
}
