import type { WebhookEventType } from '../../webhooks/catalogue';
import { triggerSampleEvent } from '../../webhooks/testTrigger';
import type { AppDeps } from '../core/context';
import { ApiError } from '../core/errors';
import { defineRoute } from '../core/route';
import { tenantOf } from '../events/tenant';
import type { Routers } from '../routes';
import { triggerWebhookResponseSchema, triggerWebhookSchema } from './validators';

const basePath = '/api/public/v1';

export function registerTestUtilityRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/test/webhooks/trigger',
      summary: "Test mode only: records a sample event of a type and sends it to the store's subscribed endpoints",
      tags: ['test'],
      body: triggerWebhookSchema,
      response: triggerWebhookResponseSchema,
      status: 202,
      errors: [404],
    },
    async ({ body, req }) => {
      const tenant = tenantOf(req);
      // Live keys must not learn this route exists.
      if (tenant.mode !== 'test') throw new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`);
      const { eventId, workflowIds } = await triggerSampleEvent(deps, tenant, {
        storeId: body.storeId,
        eventType: body.eventType as WebhookEventType,
      });
      return { eventId, eventType: body.eventType, workflowIds };
    },
  );
}
