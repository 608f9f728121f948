import { z } from 'zod';
import { attemptsOfEndpoint, redeliverEvent } from '../../webhooks/deliveries';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { tenantOf } from '../events/tenant';
import type { Routers } from '../routes';
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
      description:
        'Delivery attempts to this endpoint, newest first, with status code and error. Use it to see why deliveries fail.',
      tags,
      params: webhookParams,
      query: attemptsQuery,
      response: z.array(deliveryAttemptSchema),
    },
    async ({ params, query, req }) =>
      (await attemptsOfEndpoint(db, tenantOf(req), params.webhookId, query.limit)).map(toPublicAttempt),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      adminOnly: true,
      path: '/webhooks/:webhookId/redeliver',
      summary: 'Delivers an event to this endpoint again, as a new delivery workflow with its own retries',
      description:
        'Sends one event to this endpoint again as a new delivery with its own retries, e.g. after the receiver was fixed.',
      tags,
      params: webhookParams,
      body: redeliverSchema,
      example: { eventId: 'evt_6TgB1yHn4UjM7iKo2LpQ' },
      response: z.object({ eventId: z.string(), endpointId: z.string(), workflowId: z.string() }),
      status: 202,
      errors: [409],
    },
    async ({ params, body, req }) => redeliverEvent(deps, tenantOf(req), params.webhookId, body.eventId),
  );
}
