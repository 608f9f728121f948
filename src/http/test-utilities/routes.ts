import type { WebhookEventType } from '../../webhooks/catalogue';
import { triggerSampleEvent } from '../../webhooks/testTrigger';
import type { AppDeps } from '../core/context';
import { forbidden } from '../../errors';
import { authOf } from '../auth/authenticate';
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
      example: { storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ', eventType: 'payment/succeeded' },
      response: triggerWebhookResponseSchema,
      description:
        'The test group is sandbox-only: a live key is authenticated but not allowed, so it gets 403 TEST_MODE_ONLY ' +
        '(before the body is read), not a 404 (the route is public in this document anyway).',
      status: 202,
      // A refusal that depends on the key's mode, before the body is read.
      authorize: ({ req }) => {
        if (authOf(req).mode !== 'test') throw forbidden('Test utilities answer test-mode keys only', 'TEST_MODE_ONLY');
      },
    },
    async ({ body, req }) => {
      const tenant = tenantOf(req);
      const { eventId, workflowIds } = await triggerSampleEvent(deps, tenant, {
        storeId: body.storeId,
        eventType: body.eventType as WebhookEventType,
      });
      return { eventId, eventType: body.eventType, workflowIds };
    },
  );
}
