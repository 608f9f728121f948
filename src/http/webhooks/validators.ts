import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';
import type { WebhookDeliveryAttempt, WebhookEndpoint } from '../../generated/prisma/client';
import { isWebhookEventType, webhookEventTypes } from '../../webhooks/catalogue';
import { responseExcerpt } from '../../webhooks/responseExcerpt';

const eventTypesSchema = z
  .array(z.string())
  .min(1, 'at least one event type is required')
  .superRefine((types, ctx) => {
    const unknown = types.filter((type) => !isWebhookEventType(type));
    if (unknown.length)
      ctx.addIssue({
        code: 'custom',
        message: `unknown event type ${unknown.join(', ')}; known: ${webhookEventTypes.join(', ')}`,
      });
  })
  .transform((types) => [...new Set(types)]);

const urlSchema = z.string().min(1).max(2048);

export const createWebhookSchema = z
  .object({
    storeId: idOf('store'),
    url: urlSchema,
    eventTypes: eventTypesSchema,
    description: z.string().max(500).optional(),
  })
  .strict()
  .openapi('CreateWebhookEndpoint');
export type CreateWebhookRequest = z.infer<typeof createWebhookSchema>;

export const updateWebhookSchema = z
  .object({
    url: urlSchema.optional(),
    eventTypes: eventTypesSchema.optional(),
    enabled: z.boolean().optional(),
    description: z.string().max(500).nullable().optional(),
  })
  .strict()
  .openapi('UpdateWebhookEndpoint');
export type UpdateWebhookRequest = z.infer<typeof updateWebhookSchema>;

export const rotateSecretSchema = z
  .object({
    /** How long the replaced secret keeps signing (default 24 h, at most 7 days; 0 ends it now). */
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(24 * 3600),
  })
  .strict()
  .openapi('RotateWebhookSecret');

export const redeliverSchema = z
  .object({ eventId: idOf('evt') })
  .strict()
  .openapi('RedeliverWebhook');

export const listWebhooksQuery = z.object({ storeId: idOf('store') });
export const webhookParams = idParam('webhookId', 'wh');
export const attemptsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

/** The public endpoint: the webhook fields of /openapi.json plus store, description and why it is disabled. Never the secret. */
export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    eventTypes: z.array(z.string()),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('WebhookEndpoint');
export type PublicWebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** Shown once: an Idempotency-Key replay answers without it (the stored answer never holds it). */
const signingSecret = z.string().optional().openapi({
  description: 'The signing secret, shown once: a replay of this request (same Idempotency-Key) answers without it',
});

export const createdWebhookSchema = webhookEndpointSchema
  .extend({ secret: signingSecret })
  .openapi('CreatedWebhookEndpoint');

export const rotatedSecretSchema = z
  .object({ id: z.string(), secret: signingSecret, previousSecretExpiresAt: z.string().nullable() })
  .openapi('RotatedWebhookSecret');

export function toPublicEndpoint(endpoint: WebhookEndpoint): PublicWebhookEndpoint {
  return {
    id: endpoint.id,
    storeId: endpoint.storeId,
    url: endpoint.url,
    description: endpoint.description,
    enabled: endpoint.enabled,
    eventTypes: endpoint.eventTypes,
    disabledReason: endpoint.disabledReason,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

export const deliveryAttemptSchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    endpointId: z.string(),
    workflowId: z.string(),
    attempt: z.number().int(),
    outcome: z.enum(['succeeded', 'failed']),
    responseStatus: z.number().int().nullable(),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    responseSnippet: z.string().nullable().openapi({
      description:
        "At most 200 characters of the receiver's answer, control characters stripped (its status is responseStatus)",
    }),
    createdAt: z.string(),
  })
  .openapi('WebhookDeliveryAttempt');

export function toPublicAttempt(attempt: WebhookDeliveryAttempt): z.infer<typeof deliveryAttemptSchema> {
  return {
    id: attempt.id,
    eventId: attempt.eventId,
    endpointId: attempt.endpointId,
    workflowId: attempt.workflowId,
    attempt: attempt.attempt,
    outcome: attempt.outcome,
    responseStatus: attempt.responseStatus,
    latencyMs: attempt.latencyMs,
    error: attempt.error,
    // Sanitized again on the way out: rows written before excerpts were cut stay short here too.
    responseSnippet: responseExcerpt(attempt.responseSnippet),
    createdAt: attempt.createdAt.toISOString(),
  };
}
