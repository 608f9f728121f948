import { z } from 'zod';
import { newId } from '../../domain/ids';
import { deliveryPolicy } from '../../webhooks/delivery';
import { newWebhookSecret } from '../../webhooks/signing';
import { assertWebhookUrlAllowed, WebhookUrlError } from '../../webhooks/urlGuard';
import type { AppDeps } from '../core/context';
import { badRequest } from '../core/errors';
import { defineRoute } from '../core/route';
import { tenantOf, type Tenant } from '../events/tenant';
import type { Routers } from '../routes';
import { registerWebhookDeliveryRoutes } from './deliveryRoutes';
import { assertStoreOfTenant, findEndpoint } from '../../webhooks/lookup';
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

/** Scheme, form and resolved addresses of a URL under the mode's policy; 400 when refused. */
async function checkedUrl(deps: AppDeps, tenant: Tenant, url: string): Promise<string> {
  try {
    return (await assertWebhookUrlAllowed(url, deliveryPolicy(deps.config, tenant.mode))).toString();
  } catch (error) {
    if (error instanceof WebhookUrlError) throw badRequest(error.message, 'INVALID_WEBHOOK_URL');
    throw error;
  }
}

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
      tags,
      body: createWebhookSchema,
      response: createdWebhookSchema,
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => {
      const tenant = tenantOf(req);
      await assertStoreOfTenant(db, tenant, body.storeId);
      const url = await checkedUrl(deps, tenant, body.url);
      const secret = newWebhookSecret();
      const endpoint = await db.webhookEndpoint.create({
        data: {
          id: newId('webhookEndpoint'),
          ...tenant,
          storeId: body.storeId,
          url,
          eventTypes: body.eventTypes,
          description: body.description ?? null,
          secret,
        },
      });
      return { ...toPublicEndpoint(endpoint), secret };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/webhooks',
      summary: "Lists a store's webhook endpoints (never their secrets)",
      tags,
      query: listWebhooksQuery,
      response: z.array(webhookEndpointSchema),
      errors: [404],
    },
    async ({ query, req }) => {
      const tenant = tenantOf(req);
      await assertStoreOfTenant(db, tenant, query.storeId);
      const endpoints = await db.webhookEndpoint.findMany({
        where: { ...tenant, storeId: query.storeId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return endpoints.map(toPublicEndpoint);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/webhooks/:webhookId',
      summary: 'Shows a webhook endpoint',
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
      tags,
      params: webhookParams,
      body: updateWebhookSchema,
      response: webhookEndpointSchema,
    },
    async ({ params, body, req }) => {
      const tenant = tenantOf(req);
      const existing = await findEndpoint(db, tenant, params.webhookId);
      const url = body.url === undefined ? undefined : await checkedUrl(deps, tenant, body.url);
      const reenabled = body.enabled === true && !existing.enabled;
      const endpoint = await db.webhookEndpoint.update({
        where: { id: existing.id },
        data: {
          url,
          eventTypes: body.eventTypes,
          description: body.description,
          enabled: body.enabled,
          ...(reenabled ? { failingSince: null, lastFailedAt: null, disabledReason: null, disabledAt: null } : {}),
          ...(body.enabled === false && existing.enabled
            ? { disabledReason: 'disabled by the merchant', disabledAt: new Date() }
            : {}),
        },
      });
      return toPublicEndpoint(endpoint);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      adminOnly: true,
      method: 'delete',
      path: '/webhooks/:webhookId',
      summary: 'Deletes a webhook endpoint (running deliveries to it stop)',
      tags,
      params: webhookParams,
      response: z.object({ id: z.string(), deleted: z.literal(true) }),
    },
    async ({ params, req }) => {
      const endpoint = await findEndpoint(db, tenantOf(req), params.webhookId);
      await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
      return { id: endpoint.id, deleted: true as const };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      adminOnly: true,
      path: '/webhooks/:webhookId/rotate-secret',
      summary: 'Issues a new signing secret; the old one keeps signing (a second v1=) for overlapSeconds',
      tags,
      params: webhookParams,
      body: rotateSecretSchema,
      response: rotatedSecretSchema,
    },
    async ({ params, body, req }) => {
      const existing = await findEndpoint(db, tenantOf(req), params.webhookId);
      const secret = newWebhookSecret();
      const expiresAt = body.overlapSeconds > 0 ? new Date(Date.now() + body.overlapSeconds * 1000) : null;
      await db.webhookEndpoint.update({
        where: { id: existing.id },
        data: { secret, previousSecret: expiresAt ? existing.secret : null, previousSecretExpiresAt: expiresAt },
      });
      return { id: existing.id, secret, previousSecretExpiresAt: expiresAt?.toISOString() ?? null };
    },
  );

  registerWebhookDeliveryRoutes(routers, deps);
}
