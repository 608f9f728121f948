import { z } from 'zod';
import type { PaymentFlow } from '../../generated/prisma/client';
import { idOf, idParam } from '../../commerce/schemas';

/** One processor of a flow: its share of first picks, and whether it is switched off or sticky. */
export const processorConfigSchema = z
  .object({
    processorId: idOf('proc'),
    weight: z.number().int().min(0).max(1_000_000),
    disabled: z.boolean().default(false),
    nonStickable: z.boolean().default(false),
  })
  .strict();

export const fallbackProcessorConfigSchema = z
  .object({ processorId: idOf('proc'), orderIndex: z.number().int().min(0).max(1000) })
  .strict();

const unique =
  <T>(key: (item: T) => unknown, what: string) =>
  (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<unknown>();
    items.forEach((item, index) => {
      if (seen.has(key(item)))
        ctx.addIssue({ code: 'custom', message: `duplicate ${what} ${String(key(item))}`, path: [index] });
      seen.add(key(item));
    });
  };

/** Also what workflow-side code can parse the stored JSON columns with. */
export const processorConfigsSchema = z
  .array(processorConfigSchema)
  .max(50)
  .superRefine(unique((c) => c.processorId, 'processorId'));
export const fallbackProcessorConfigsSchema = z
  .array(fallbackProcessorConfigSchema)
  .max(50)
  .superRefine(unique((c) => c.processorId, 'processorId'))
  .superRefine(unique((c) => c.orderIndex, 'orderIndex'));

const flowFields = {
  name: z.string().trim().min(1).max(200),
  strategy: z
    .enum(['cascade', 'single'])
    .openapi({ description: 'cascade: soft declines and technical failures go on to the fallbacks' }),
  threeDsEnabled: z.boolean(),
  threeDsProviderProcessorId: idOf('proc')
    .nullable()
    .openapi({
      description:
        "The account's `adyen` processor (same mode) whose credentials run the engine's own 3-D Secure for this flow, " +
        "with Adyen's authentication-only flow (docs/threeds.md). Without one, engine-run 3DS uses the sandbox's " +
        'simulator in test mode and is refused in live mode (409 THREEDS_PROVIDER_REQUIRED). null clears it.',
    }),
  authenticationTimeoutMinutes: z
    .number()
    .int()
    .min(1)
    .max(1440)
    .openapi({
      description:
        "Minutes a payment waits for the shopper at a processor's own 3-D Secure page (step-up) before it is canceled " +
        'at the processor and fails authentication_timeout. 1 to 1440, default 15.',
      example: 15,
    }),
  stickyProcessorEnabled: z.boolean(),
  pickProcessorStrategy: z.enum(['weighted', 'ordered']),
  fallbackMode: z.boolean(),
  maxFallbackRetries: z.number().int().min(0).max(10),
  processorConfigs: processorConfigsSchema,
  fallbackProcessorConfigs: fallbackProcessorConfigsSchema,
};

export const createPaymentFlowSchema = z
  .object(flowFields)
  .partial({
    strategy: true,
    threeDsEnabled: true,
    threeDsProviderProcessorId: true,
    authenticationTimeoutMinutes: true,
    stickyProcessorEnabled: true,
    pickProcessorStrategy: true,
    fallbackMode: true,
    maxFallbackRetries: true,
    fallbackProcessorConfigs: true,
  })
  .strict();
export type CreatePaymentFlowInput = z.infer<typeof createPaymentFlowSchema>;

/** `POST /payment-flows/update`: every data field optional except fallbackProcessorConfigs. */
export const updatePaymentFlowSchema = z
  .object({
    flowId: idOf('flow'),
    data: z.object(flowFields).partial().required({ fallbackProcessorConfigs: true }).strict(),
  })
  .strict();

export const paymentFlowParams = idParam('flowId', 'flow');

export const paymentFlowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    strategy: z.string(),
    threeDsEnabled: z.boolean(),
    threeDsProviderProcessorId: z.string().nullable(),
    authenticationTimeoutMinutes: z.number().int(),
    stickyProcessorEnabled: z.boolean(),
    pickProcessorStrategy: z.string(),
    fallbackMode: z.boolean(),
    maxFallbackRetries: z.number().int(),
    processorConfigs: z.array(
      z.object({ processorId: z.string(), weight: z.number().int(), disabled: z.boolean(), nonStickable: z.boolean() }),
    ),
    fallbackProcessorConfigs: z.array(z.object({ processorId: z.string(), orderIndex: z.number().int() })),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PaymentFlow');

export function toPublicPaymentFlow(row: PaymentFlow): z.input<typeof paymentFlowSchema> {
  return {
    id: row.id,
    name: row.name,
    strategy: row.strategy,
    threeDsEnabled: row.threeDsEnabled,
    threeDsProviderProcessorId: row.threeDsProviderProcessorId,
    authenticationTimeoutMinutes: row.authenticationTimeoutMinutes,
    stickyProcessorEnabled: row.stickyProcessorEnabled,
    pickProcessorStrategy: row.pickProcessorStrategy,
    fallbackMode: row.fallbackMode,
    maxFallbackRetries: row.maxFallbackRetries,
    processorConfigs: processorConfigsSchema.parse(row.processorConfigs),
    fallbackProcessorConfigs: fallbackProcessorConfigsSchema.parse(row.fallbackProcessorConfigs),
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
