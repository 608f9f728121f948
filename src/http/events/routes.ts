import { z } from 'zod';
import { deliveryAttemptsOfEvent, recentEvents } from '../../events/queries';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { deliveryAttemptSchema, toPublicAttempt } from '../webhooks/validators';
import { tenantOf } from './tenant';
import { eventParams, eventSchema, recentEventsSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['events'];

export function registerEventRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/events/recent',
      summary: "The account's most recent events, newest first (limit 1–100, default 10)",
      description:
        'The newest events of the account (payments, orders, subscriptions…), as webhooks deliver them. Use it to see what a webhook endpoint should have received, or to poll without one.',
      tags,
      adminOnly: true,
      body: recentEventsSchema,
      example: { limit: 20 },
      response: z.array(eventSchema),
    },
    async ({ body, req }) => recentEvents(db, tenantOf(req), body.limit),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/events/:eventId/webhook-attempts',
      summary: 'Every webhook delivery attempt of one event, newest first',
      description:
        "Every delivery attempt of one event to the account's endpoints, with status code and timing. Use it to debug why an endpoint did not get an event.",
      tags,
      params: eventParams,
      response: z.array(deliveryAttemptSchema),
    },
    async ({ params, req }) => (await deliveryAttemptsOfEvent(db, tenantOf(req), params.eventId)).map(toPublicAttempt),
  );
}
