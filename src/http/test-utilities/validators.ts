import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import { isWebhookEventType } from '../../webhooks/catalogue';

export const triggerWebhookSchema = z
  .object({
    storeId: idOf('store'),
    eventType: z
      .string()
      .refine(isWebhookEventType, 'unknown event type; use a webhook type of the catalogue such as order/paid'),
  })
  .strict()
  .openapi('TriggerTestWebhook');

export const triggerWebhookResponseSchema = z
  .object({ eventId: z.string(), eventType: z.string(), workflowIds: z.array(z.string()) })
  .openapi('TriggeredTestWebhook');
