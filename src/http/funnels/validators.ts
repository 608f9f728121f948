import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';
import { funnelStepTypes } from '../../domain/funnelGraph';
import type { FunnelRow } from '../../funnels/funnels';
import { languageCodeSchema } from '../checkout-sessions/validators';
import '../core/openapi';

const stepKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64')
  .openapi({ description: "The merchant's name for the step, unique in the funnel; edges name steps by it" });

/** A step of a create or update request: edges (`next`, `onAccept`, `onDecline`) name other steps by key. */
export const funnelStepInputSchema = z
  .object({
    key: stepKey,
    type: z.enum(funnelStepTypes),
    name: z.string().trim().min(1).max(200).nullable().optional(),
    next: stepKey.nullable().optional().openapi({ description: 'landing, checkout: the step that follows' }),
    priceId: idOf('price')
      .nullable()
      .optional()
      .openapi({ description: 'upsell, downsell: the price offered (charged on accept)' }),
    titleTrans: z
      .record(languageCodeSchema, z.string().trim().min(1).max(200))
      .refine((titles) => Object.keys(titles).length <= 50, 'at most 50 languages')
      .nullable()
      .optional()
      .openapi({
        description:
          "upsell, downsell: the offer's title by language code on the hosted offer page (else the step's name, else the product's)",
      }),
    onAccept: stepKey.nullable().optional().openapi({ description: 'upsell, downsell: the step after an accept' }),
    onDecline: stepKey.nullable().optional().openapi({ description: 'upsell, downsell: the step after a decline' }),
  })
  .strict()
  .openapi('FunnelStepInput');

const stepsInput = z.array(funnelStepInputSchema).min(1).max(50);

export const funnelStepSchema = z
  .object({
    id: z.string(),
    key: z.string(),
    type: z.enum(funnelStepTypes),
    name: z.string().nullable(),
    next: z.string().nullable(),
    priceId: z.string().nullable(),
    titleTrans: z.record(z.string(), z.string()).nullable(),
    onAccept: z.string().nullable(),
    onDecline: z.string().nullable(),
  })
  .openapi('FunnelStep');

export const funnelSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    name: z.string(),
    steps: z.array(funnelStepSchema),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Funnel');

export const createFunnelSchema = z
  .object({ storeId: idOf('store'), name: z.string().trim().min(1).max(200), steps: stepsInput })
  .strict();
export const updateFunnelSchema = z
  .object({
    id: idOf('funnelv2'),
    data: z
      .object({ name: z.string().trim().min(1).max(200), steps: stepsInput })
      .partial()
      .strict(),
  })
  .strict();
export const listFunnelsSchema = z.object({ storeId: idOf('store') }).strict();
export const funnelParams = idParam('funnelId', 'funnelv2');

export function toPublicFunnel(row: FunnelRow) {
  return {
    id: row.id,
    storeId: row.storeId,
    name: row.name,
    steps: row.steps.map((step) => ({
      id: step.id,
      key: step.key,
      type: step.type,
      name: step.name ?? null,
      next: step.next ?? null,
      priceId: step.priceId ?? null,
      titleTrans: step.titleTrans ?? null,
      onAccept: step.onAccept ?? null,
      onDecline: step.onDecline ?? null,
    })),
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
