import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';
import '../core/openapi';

export const startFunnelSessionSchema = z
  .object({
    funnelId: idOf('funnelv2'),
    customerId: idOf('cus').optional(),
    idleTimeoutSeconds: z
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .optional()
      .openapi({ description: 'The session ends after this long without activity (default 1800)' }),
  })
  .strict()
  .openapi('StartFunnelSessionRequest');

export const attachCheckoutSchema = z
  .object({ paymentId: idOf('pay').openapi({ description: "The checkout's succeeded payment" }) })
  .strict()
  .openapi('FunnelCheckoutRequest');

export const answerOfferSchema = z
  .object({ stepId: idOf('step'), accept: z.boolean() })
  .strict()
  .openapi('FunnelOfferAnswerRequest');

export const funnelSessionParams = idParam('sessionId', 'fs');

export const offerAnswerSchema = z
  .object({
    stepId: z.string(),
    accept: z.boolean(),
    status: z.enum(['declined', 'processing', 'succeeded', 'failed']),
    paymentId: z.string().nullable(),
    orderId: z.string().nullable(),
    amount: z.number().int().nullable(),
    currency: z.string().nullable(),
    declineCode: z.string().nullable(),
  })
  .openapi('FunnelOfferAnswer');

export const funnelSessionSchema = z
  .object({
    id: z.string(),
    funnelId: z.string(),
    storeId: z.string(),
    customerId: z.string().nullable(),
    status: z.enum(['active', 'completed', 'expired']),
    currentStepId: z.string(),
    checkoutPaymentId: z.string().nullable(),
    answers: z.array(offerAnswerSchema),
  })
  .openapi('FunnelSession');
