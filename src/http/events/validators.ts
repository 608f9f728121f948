import { z } from 'zod';
import { idParam } from '../../commerce/schemas';

export const recentEventsSchema = z
  .object({ limit: z.number().int().min(1).max(100).default(10) })
  .strict()
  .openapi('RecentEventsRequest');
export type RecentEventsRequest = z.infer<typeof recentEventsSchema>;

export const eventSchema = z
  .object({
    id: z.string(),
    accountId: z.string(),
    storeId: z.string().nullable(),
    customerId: z.string().nullable(),
    eventType: z.string(),
    properties: z.record(z.string(), z.unknown()),
    draft: z.boolean(),
    processedAt: z.string().nullable(),
    createdAt: z.string(),
    customer: z
      .object({ id: z.string(), email: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable() })
      .nullable(),
    store: z.object({ id: z.string(), name: z.string() }).nullable(),
  })
  .openapi('Event');

export const eventParams = idParam('eventId', 'evt');
