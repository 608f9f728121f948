import { z } from 'zod';
import { toEventViews } from '../../events/serialize';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
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
      tags,
      adminOnly: true,
      body: recentEventsSchema,
      response: z.array(eventSchema),
    },
    async ({ body, req }) => {
      const events = await db.event.findMany({
        where: tenantOf(req),
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: body.limit,
      });
      return toEventViews(db, events);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/events/:eventId/webhook-attempts',
      summary: 'Every webhook delivery attempt of one event, newest first',
      tags,
      params: eventParams,
      response: z.array(deliveryAttemptSchema),
    },
    async ({ params, req }) => {
      const event = await db.event.findFirst({ where: { id: params.eventId, ...tenantOf(req) }, select: { id: true } });
      if (!event) throw notFound('Event');
      const attempts = await db.webhookDeliveryAttempt.findMany({
        where: { eventId: event.id },
        orderBy: [{ createdAt: 'desc' }, { attempt: 'desc' }],
        take: 500,
      });
      return attempts.map(toPublicAttempt);
    },
  );
}
