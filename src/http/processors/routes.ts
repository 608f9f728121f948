import { z } from 'zod';
import { scopeOf } from '../auth/scope';
import { createProcessorService } from '../../processors/service';
import { beforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import {
  createProcessorSchema,
  processorParams,
  processorSchema,
  toPublicProcessor,
  updateProcessorSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['processors'];

export function registerProcessorRoutes({ publicRouter }: Routers, { db, config }: AppDeps): void {
  const processors = createProcessorService({ db, config });

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/processors',
      summary: "Creates a processor (credentials are checked against the type's schema, sealed, never returned)",
      description:
        'Connects a processor of a registered type (the sandbox, Stripe, Adyen…) with its credentials, which are checked, encrypted and never shown again. Payment flows route payments to processors.',
      tags,
      adminOnly: true,
      body: createProcessorSchema,
      example: {
        name: 'Sandbox acquirer',
        type: 'sandbox',
        credentials: { merchantId: 'demo-merchant' },
        supportedCurrencies: ['EUR', 'USD'],
        baseCurrency: 'EUR',
        enable3DS: true,
      },
      response: processorSchema,
    },
    async ({ body, req }) => {
      const data = beforeWork(() => processors.prepareCreate(scopeOf(req), body));
      return toPublicProcessor(await processors.saveCreate(data));
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/processors',
      summary: 'Lists the processors of the account',
      description: "The account's processors in the key's mode (never their credentials).",
      tags,
      response: z.array(processorSchema),
    },
    async ({ req }) => (await processors.list(scopeOf(req))).map(toPublicProcessor),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/processors/update',
      summary: 'Updates a processor; credentials, when given, replace the stored ones',
      description:
        "Changes a processor's name, currencies, enabled flag, enable3DS or credentials (given credentials replace the stored ones). Turn on enable3DS here for the engine's 3-D Secure.",
      tags,
      adminOnly: true,
      body: updateProcessorSchema,
      example: { processorId: 'proc_1ZxC6vBn3MqW8eRt4YuI', updatedData: { enable3DS: true } },
      response: processorSchema,
    },
    async ({ body, req }) => {
      const update = await beforeWork(() => processors.prepareUpdate(scopeOf(req), body.processorId, body.updatedData));
      return toPublicProcessor(await processors.saveUpdate(update));
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/processors/:processorId',
      summary: 'Retrieves a processor',
      description: 'One processor of the account (never its credentials).',
      tags,
      params: processorParams,
      response: processorSchema,
    },
    async ({ params, req }) => toPublicProcessor(await processors.find(scopeOf(req), params.processorId)),
  );
}
