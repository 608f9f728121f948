import { z } from 'zod';
import { randomBase62 } from '../../domain/ids';
import { deliveryWorkflowId, startDeliveryWorkflow } from '../../events/dispatch';
import type { AppDeps } from '../core/context';
import { conflict, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { tenantOf } from '../events/tenant';
import type { Routers } from '../routes';
import { findEndpoint } from '../../webhooks/lookup';
import { attemptsQuery, deliveryAttemptSchema, redeliverSchema, toPublicAttempt, webhookParams } from './validators';

const basePath = '/api/public/v1';
const tags = ['webhooks'];

export function registerWebhookDeliveryRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const { db } = deps;

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/webhooks/:webhookId/attempts',
      summary: 'Delivery attempts to one endpoint, newest first',
      tags,
      params: webhookParams,
      query: attemptsQuery,
      response: z.array(deliveryAttemptSchema),
    },
    async ({ params, query, req }) => {
      const endpoint = await findEndpoint(db, tenantOf(req), params.webhookId);
      const attempts = await db.webhookDeliveryAttempt.findMany({
        where: { endpointId: endpoint.id },
        orderBy: [{ createdAt: 'desc' }, { attempt: 'desc' }],
        take: query.limit,
      });
      return attempts.map(toPublicAttempt);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      adminOnly: true,
      path: '/webhooks/:webhookId/redeliver',
      summary: 'Delivers an event to this endpoint again, as a new delivery workflow with its own retries',
      tags,
      params: webhookParams,
      body: redeliverSchema,
      response: z.object({ eventId: z.string(), endpointId: z.string(), workflowId: z.string() }),
      status: 202,
      errors: [409],
    },
    async ({ params, body, req }) => {
      const tenant = tenantOf(req);
      const endpoint = await findEndpoint(db, tenant, params.webhookId);
      const event = await db.event.findFirst({ where: { id: body.eventId, ...tenant } });
      if (!event || (event.storeId && event.storeId !== endpoint.storeId)) throw notFound('Event');
      if (!endpoint.enabled)
        throw conflict('The endpoint is disabled; enable it before redelivering', 'WEBHOOK_ENDPOINT_DISABLED');
      const workflowId = `${deliveryWorkflowId(event.id, endpoint.id)}_manual_${randomBase62(8)}`;
      await startDeliveryWorkflow(
        { db, temporal: deps.temporal, taskQueue: deps.taskQueue },
        { eventId: event.id, endpointId: endpoint.id, accountId: event.accountId, storeId: event.storeId },
        workflowId,
      );
      return { eventId: event.id, endpointId: endpoint.id, workflowId };
    },
  );
}
