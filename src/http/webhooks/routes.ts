import { z } from 'zod';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from '../../webhooks/endpoints';
import { findEndpoint } from '../../webhooks/lookup';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { tenantOf } from '../events/tenant';
import type { Routers } from '../routes';
import { registerWebhookDeliveryRoutes } from './deliveryRoutes';
import {
  createdWebhookSchema,
  createWebhookSchema,
  listWebhooksQuery,
  rotatedSecretSchema,
  rotateSecretSchema,
  toPublicEndpoint,
  updateWebhookSchema,
  webhookEndpointSchema,
  webhookParams,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['webhooks'];

export function registerWebhookRoutes(routers: Routers, deps: AppDeps): void {
  const { publicRouter } = routers;
  const { db } = deps;

  defineRoute(
    publicRouter,
    basePath,
    {
      adminOnly: true,
      method: 'post',
      path: '/webhooks',
      summary: "Registers a store's webhook endpoint; the answer shows its signing secret once",
      description:
        "Registers an endpoint URL of a store for the event types it names. The signing secret is in this answer only: keep it to verify each delivery's signature (docs/webhooks.md).",
      tags,
      body: createWebhookSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        url: 'https://shop.example.com/hooks/payments',
        eventTypes: ['payment/succeeded', 'payment/refunded'],
        description: 'Order fulfilment',
      },
      response: createdWebhookSchema,
      secretFields: ['secret'],
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => {
      const endpoint = await createEndpoint(deps, tenantOf(req), body);
      return { ...toPublicEndpoint(endpoint), secret: endpoint.secret };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/webhooks',
      summary: "Lists a store's webhook endpoints (never their secrets)",
      description:
        "The store's webhook endpoints with their event types, state and failure record; secrets are never shown again.",
      tags,
      query: listWebhooksQuery,
      response: z.array(webhookEndpointSchema),
      errors: [404],
    },
    async ({ query, req }) => (await listEndpoints(db, tenantOf(req), query.storeId)).map(toPublicEndpoint),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/webhooks/:webhookId',
      summary: 'Shows a webhook endpoint',
      description: 'One webhook endpoint with its event types, state and failure record (never its secret).',
      tags,
      params: webhookParams,
      response: webhookEndpointSchema,
    },
    async ({ params, req }) => toPublicEndpoint(await findEndpoint(db, tenantOf(req), params.webhookId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      adminOnly: true,
      method: 'patch',
      path: '/webhooks/:webhookId',
      summary: 'Updates url, eventTypes, enabled or description; enabling again clears the failure record',
      description:
        "Changes an endpoint's url, event types, enabled flag or description. Enable an endpoint again here after it was disabled for failing.",
      tags,
      params: webhookParams,
      body: updateWebhookSchema,
      example: { enabled: true, eventTypes: ['payment/succeeded', 'payment/failed', 'payment/refunded'] },
      response: webhookEndpointSchema,
    },
    async ({ params, body, req }) =>
      toPublicEndpoint(await updateEndpoint(deps, tenantOf(req), params.webhookId, body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      adminOnly: true,
      method: 'delete',
      path: '/webhooks/:webhookId',
      summary: 'Deletes a webhook endpoint (running deliveries to it stop)',
      description:
        'Removes an endpoint: no new deliveries start and running ones stop. Use it when the receiver is retired; to pause, disable it instead (PATCH).',
      tags,
      params: webhookParams,
      response: z.object({ id: z.string(), deleted: z.literal(true) }),
    },
    async ({ params, req }) => ({
      id: await deleteEndpoint(db, tenantOf(req), params.webhookId),
      deleted: true as const,
    }),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      adminOnly: true,
      path: '/webhooks/:webhookId/rotate-secret',
      summary: 'Issues a new signing secret; the old one keeps signing (a second v1=) for overlapSeconds',
      description:
        'Issues a new signing secret, shown in this answer only. The old secret keeps signing too for overlapSeconds, so the receiver can switch without dropping events.',
      tags,
      params: webhookParams,
      body: rotateSecretSchema,
      example: { overlapSeconds: 3600 },
      response: rotatedSecretSchema,
      secretFields: ['secret'],
    },
    async ({ params, body, req }) => {
      const rotated = await rotateEndpointSecret(deps, tenantOf(req), params.webhookId, body.overlapSeconds);
      return { ...rotated, previousSecretExpiresAt: rotated.previousSecretExpiresAt?.toISOString() ?? null };
    },
  );

  registerWebhookDeliveryRoutes(routers, deps);
}
