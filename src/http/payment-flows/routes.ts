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
      description: "The account's payment flows in the key's mode, with their processors and fallback order.",
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
      description:
        "Creates a payment flow: which processors a payment may use (weights or order), whether it cascades to fallbacks on a soft decline, and whether the engine runs 3-D Secure (threeDsEnabled). Name it in payments or make it a store's default.",
      tags,
      adminOnly: true,
      body: createPaymentFlowSchema,
      example: {
        name: 'EU cards',
        strategy: 'cascade',
        threeDsEnabled: true,
        pickProcessorStrategy: 'ordered',
        fallbackMode: true,
        maxFallbackRetries: 1,
        processorConfigs: [{ processorId: 'proc_1ZxC6vBn3MqW8eRt4YuI', weight: 100 }],
        fallbackProcessorConfigs: [{ processorId: 'proc_4HjK7lMn2BvC9xZq5WeR', orderIndex: 0 }],
      },
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
      description:
        "Changes a payment flow (`{flowId, data}`); fallbackProcessorConfigs must always be sent. Turn on threeDsEnabled here for the engine's 3-D Secure.",
      tags,
      adminOnly: true,
      body: updatePaymentFlowSchema,
      example: {
        flowId: 'flow_9QwE4rTy7UiO2pAs5DfG',
        data: {
          threeDsEnabled: true,
          fallbackProcessorConfigs: [{ processorId: 'proc_4HjK7lMn2BvC9xZq5WeR', orderIndex: 0 }],
        },
      },
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
      description: 'One payment flow with its processors, fallback order and 3-D Secure setting.',
      tags,
      params: paymentFlowParams,
      response: paymentFlowSchema,
    },
    async ({ params, req }) => toPublicPaymentFlow(await findPaymentFlow(db, scopeOf(req), params.flowId)),
  );
}
