import { z } from 'zod';
import type { Db, Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf, type Scope } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { badRequest, notFound } from '../core/errors';
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

/** A payment flow of the caller's account and mode, or 404. */
export async function findPaymentFlow(db: Db | Prisma.TransactionClient, scope: Scope, flowId: string) {
  const flow = await db.paymentFlow.findFirst({ where: { id: flowId, ...scope } });
  if (!flow) throw notFound('Payment flow');
  return flow;
}

/** Every processor a flow names must be one of the account's (same mode); otherwise 400 naming them. */
async function assertProcessorsExist(db: Db, scope: Scope, configs: { processorId: string }[][]): Promise<void> {
  const ids = [...new Set(configs.flat().map((c) => c.processorId))];
  if (ids.length === 0) return;
  const found = await db.processor.findMany({ where: { id: { in: ids }, ...scope }, select: { id: true } });
  const known = new Set(found.map((p) => p.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    throw badRequest(
      `Unknown processor(s) for this account: ${missing.join(', ')}`,
      'UNKNOWN_PROCESSOR',
      missing.map((id) => ({ message: `processor ${id} does not exist in this account` })),
    );
  }
}

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
    async ({ req }) => {
      const rows = await db.paymentFlow.findMany({
        where: scopeOf(req),
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return rows.map(toPublicPaymentFlow);
    },
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
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const fallbackProcessorConfigs = body.fallbackProcessorConfigs ?? [];
      if (body.processorConfigs.length + fallbackProcessorConfigs.length === 0)
        throw badRequest('A payment flow needs at least one processor', 'NO_PROCESSORS');
      await assertProcessorsExist(db, scope, [body.processorConfigs, fallbackProcessorConfigs]);
      const flow = await db.paymentFlow.create({
        data: {
          id: newId('paymentFlow'),
          ...scope,
          name: body.name,
          strategy: body.strategy,
          threeDsEnabled: body.threeDsEnabled,
          stickyProcessorEnabled: body.stickyProcessorEnabled,
          pickProcessorStrategy: body.pickProcessorStrategy,
          fallbackMode: body.fallbackMode,
          maxFallbackRetries: body.maxFallbackRetries,
          processorConfigs: body.processorConfigs,
          fallbackProcessorConfigs,
        },
      });
      return toPublicPaymentFlow(flow);
    },
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
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const existing = await findPaymentFlow(db, scope, body.flowId);
      const data = body.data;
      await assertProcessorsExist(db, scope, [data.processorConfigs ?? [], data.fallbackProcessorConfigs]);
      const flow = await db.paymentFlow.update({
        where: { id: existing.id },
        data: {
          name: data.name,
          strategy: data.strategy,
          threeDsEnabled: data.threeDsEnabled,
          stickyProcessorEnabled: data.stickyProcessorEnabled,
          pickProcessorStrategy: data.pickProcessorStrategy,
          fallbackMode: data.fallbackMode,
          maxFallbackRetries: data.maxFallbackRetries,
          processorConfigs: data.processorConfigs,
          fallbackProcessorConfigs: data.fallbackProcessorConfigs,
        },
      });
      return toPublicPaymentFlow(flow);
    },
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
