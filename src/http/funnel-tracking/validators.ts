import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';
import { funnelStepTypes } from '../../domain/funnelGraph';
import '../core/openapi';

export const trackStepSchema = z
  .object({
    eventType: z.enum(['view', 'enter', 'convert', 'custom']),
    storeId: idOf('store'),
    stepId: idOf('step'),
    deviceType: z.enum(['mobile', 'tablet', 'desktop']).optional(),
    environment: z.enum(['staging', 'production']).optional(),
    funnelTracking: z
      .boolean()
      .optional()
      .openapi({ description: 'false: the event moves the session but is left out of the step report' }),
    sessionId: idOf('fs')
      .optional()
      .openapi({ description: 'The funnel session the event is of: view/enter move it to the step' }),
  })
  .strict()
  .openapi('FunnelTrackingStepRequest');

export const trackStepResponseSchema = z
  .object({ success: z.literal(true), eventType: z.string(), stepId: z.string() })
  .openapi('FunnelTrackingStepResponse');

export const reportParams = idParam('funnelId', 'funnelv2');
export const reportQuery = z.object({ environment: z.enum(['staging', 'production']).optional() }).strict();

export const stepReportSchema = z
  .object({
    funnelId: z.string(),
    steps: z.array(
      z.object({
        stepId: z.string(),
        key: z.string(),
        type: z.enum(funnelStepTypes),
        views: z.number().int(),
        enters: z.number().int(),
        conversions: z.number().int(),
        custom: z.number().int(),
        sessions: z.number().int(),
      }),
    ),
  })
  .openapi('FunnelStepReport');
