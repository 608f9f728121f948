import { z } from 'zod';
import type { Db, Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf, type Scope } from '../auth/scope';
import { sealProcessorCredentials } from '../../processors/credentials';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import {
  createProcessorSchema,
  processorParams,
  processorSchema,
  toPublicProcessor,
  updateProcessorSchema,
  withBaseCurrency,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['processors'];

/** A processor of the caller's account and mode, or 404. */
export async function findProcessor(db: Db | Prisma.TransactionClient, scope: Scope, processorId: string) {
  const processor = await db.processor.findFirst({ where: { id: processorId, ...scope } });
  if (!processor) throw notFound('Processor');
  return processor;
}

export function registerProcessorRoutes({ publicRouter }: Routers, { db, config }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/processors',
      summary: 'Creates a processor (credentials are sealed, never returned)',
      tags,
      adminOnly: true,
      body: createProcessorSchema,
      response: processorSchema,
    },
    async ({ body, req }) => {
      const processor = await db.processor.create({
        data: {
          id: newId('processor'),
          ...scopeOf(req),
          name: body.name,
          type: body.type,
          encryptedCredentials: sealProcessorCredentials(body.credentials, config),
          supportedCurrencies: withBaseCurrency(body.baseCurrency, body.supportedCurrencies),
          baseCurrency: body.baseCurrency,
          enabled: body.enabled ?? true,
          enable3DS: body.enable3DS ?? false,
        },
      });
      return toPublicProcessor(processor);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/processors',
      summary: 'Lists the processors of the account',
      tags,
      response: z.array(processorSchema),
    },
    async ({ req }) => {
      const rows = await db.processor.findMany({ where: scopeOf(req), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return rows.map(toPublicProcessor);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/processors/update',
      summary: 'Updates a processor; credentials, when given, replace the stored ones',
      tags,
      adminOnly: true,
      body: updateProcessorSchema,
      response: processorSchema,
    },
    async ({ body, req }) => {
      const existing = await findProcessor(db, scopeOf(req), body.processorId);
      const data = body.updatedData;
      const baseCurrency = data.baseCurrency ?? existing.baseCurrency;
      const supported = data.supportedCurrencies ?? (data.baseCurrency ? existing.supportedCurrencies : undefined);
      const processor = await db.processor.update({
        where: { id: existing.id },
        data: {
          name: data.name,
          type: data.type,
          encryptedCredentials: data.credentials ? sealProcessorCredentials(data.credentials, config) : undefined,
          supportedCurrencies: supported ? withBaseCurrency(baseCurrency, supported) : undefined,
          baseCurrency: data.baseCurrency,
          enabled: data.enabled,
          enable3DS: data.enable3DS,
        },
      });
      return toPublicProcessor(processor);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/processors/:processorId',
      summary: 'Retrieves a processor',
      tags,
      params: processorParams,
      response: processorSchema,
    },
    async ({ params, req }) => toPublicProcessor(await findProcessor(db, scopeOf(req), params.processorId)),
  );
}
