import { z } from 'zod';
import { currencySchema, idOf, idParam, shopperUrlSchema } from '../../commerce/schemas';
import { cardAliasField, checkAlias } from '../core/aliases';
import '../core/openapi';

export const initiatedBySchema = z.enum(['customer', 'merchant']);

/**
 * The cardholder's IP address as the merchant's server saw it (IPv4 or IPv6): what `ip` block rules
 * check. The caller's own address (the merchant's server) is never used in its place.
 */
export const customerIpSchema = z.union([z.ipv4(), z.ipv6()]).optional().openapi({
  description:
    "The cardholder's IP address (IPv4 or IPv6), as the merchant's server received it. IP block rules check it; without it they do not match and the payment records ipRulesEvaluated: false",
  example: '203.0.113.7',
});

/**
 * The shopper's browser as the merchant's page saw it: what a processor needs for 3-D Secure 2
 * (the issuer judges the risk and sizes its challenge page by it).
 */
export const browserInfoSchema = z
  .object({
    userAgent: z.string().min(1).max(512),
    acceptHeader: z.string().min(1).max(2048).openapi({ description: "The browser's Accept header" }),
    language: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'language must be a language tag such as en-US')
      .max(35)
      .optional(),
    colorDepth: z
      .number()
      .int()
      .refine(
        (depth) => [1, 4, 8, 15, 16, 24, 30, 32, 48].includes(depth),
        'colorDepth must be 1, 4, 8, 15, 16, 24, 30, 32 or 48',
      )
      .optional(),
    screenHeight: z.number().int().min(1).max(100_000).optional(),
    screenWidth: z.number().int().min(1).max(100_000).optional(),
    timeZoneOffset: z
      .number()
      .int()
      .min(-840)
      .max(840)
      .optional()
      .openapi({ description: "Minutes from UTC as JavaScript's Date.getTimezoneOffset() gives them" }),
    javaEnabled: z.boolean().optional(),
    javaScriptEnabled: z.boolean().optional(),
  })
  .strict()
  .optional()
  .openapi({
    description:
      "The shopper's browser, for 3-D Secure 2 at processors that take it (docs/step-up-authentication.md). userAgent and acceptHeader are required when it is sent.",
    example: {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      acceptHeader: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      language: 'de-DE',
      colorDepth: 24,
      screenHeight: 1080,
      screenWidth: 1920,
      timeZoneOffset: -60,
      javaEnabled: false,
      javaScriptEnabled: true,
    },
  });

/** Where the shopper's browser goes after a processor's own 3-D Secure page (step-up). */
export const returnUrlSchema = shopperUrlSchema('returnUrl').openapi({
  description:
    "Where the shopper's browser is sent once a processor's own 3-D Secure page (step-up) is over, with paymentId " +
    'and status added to its query. Without it the engine shows the result itself (docs/step-up-authentication.md).',
  example: 'https://shop.example/orders/return',
});

export const paymentIntents = ['purchase', 'auth', 'capture'] as const;

/** `POST /payments/process`. intent `capture` captures the authorized payment named by paymentId (or the order's). */
export const processPaymentSchema = z
  .object({
    storeId: idOf('store'),
    amount: z
      .number()
      .int()
      .min(
        1,
        'amount must be at least 1 minor unit: a direct payment of 0 has nothing to charge (a free checkout session is completed by pay-v2)',
      )
      .optional()
      .openapi({
        description:
          'Minor units, at least 1. Required for purchase/auth; for capture, defaults to the whole authorization',
      }),
    currency: currencySchema.optional(),
    paymentInstrumentId: idOf('pi').optional().openapi({
      description:
        'The stored card (pi_) to charge; required for purchase and auth, under this name or its alias paymentMethodId',
    }),
    paymentMethodId: cardAliasField('paymentInstrumentId', 'paymentMethodId'),
    customerId: idOf('cus').optional(),
    orderId: idOf('ord').optional(),
    paymentId: idOf('pay').optional().openapi({ description: 'intent capture: the authorized payment to capture' }),
    intent: z.enum(paymentIntents).optional().openapi({
      description:
        'purchase (authorize + capture, the default), auth (authorize only) or capture (of an earlier auth). The documented name of what this operation used to call mode',
    }),
    mode: z.enum(paymentIntents).optional().openapi({
      description:
        'Older name of intent on this operation only (everywhere else mode means test or live); still accepted. Both with different values is 400 VALIDATION_ERROR',
    }),
    initiatedBy: initiatedBySchema.default('customer'),
    paymentFlowId: idOf('flow').optional(),
    threedsSessionId: idOf('3ds').optional(),
    customerIp: customerIpSchema,
    returnUrl: returnUrlSchema,
    browserInfo: browserInfoSchema,
  })
  .strict()
  .superRefine((body, ctx) => {
    checkAlias(body, ctx, 'paymentInstrumentId', 'paymentMethodId', false);
    checkAlias(body, ctx, 'intent', 'mode', false);
    const intent = body.intent ?? body.mode ?? 'purchase';
    if (intent === 'capture') {
      if (!body.paymentId && !body.orderId)
        ctx.addIssue({ code: 'custom', path: ['paymentId'], message: 'intent capture needs paymentId or orderId' });
      return;
    }
    const card = body.paymentInstrumentId ?? body.paymentMethodId;
    for (const [field, value] of [
      ['amount', body.amount],
      ['currency', body.currency],
      ['paymentInstrumentId', card],
      ['customerId', body.customerId],
    ] as const) {
      if (value === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `${field}${field === 'paymentInstrumentId' ? ' (or its alias paymentMethodId)' : ''} is required for intent ${intent}`,
        });
    }
  })
  .transform(({ paymentMethodId, paymentInstrumentId, mode, intent, ...body }) => ({
    ...body,
    paymentInstrumentId: paymentInstrumentId ?? paymentMethodId,
    intent: intent ?? mode ?? 'purchase',
  }))
  .openapi('ProcessPaymentRequest');
export type ProcessPaymentBody = z.infer<typeof processPaymentSchema>;

export const paymentParams = idParam('paymentId', 'pay');

export const captureSchema = z
  .object({ paymentId: idOf('pay'), amount: z.number().int().min(1).optional() })
  .strict()
  .openapi('CapturePaymentRequest');
export const voidSchema = z
  .object({ paymentId: idOf('pay') })
  .strict()
  .openapi('VoidPaymentRequest');
export const refundRequestSchema = z
  .object({
    paymentId: idOf('pay'),
    amount: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: 'Minor units; defaults to what is left to refund' }),
    reason: z.string().min(1).max(500).optional(),
  })
  .strict()
  .openapi('RefundPaymentRequest');
export const disputeStatusSchema = z.enum(['needs_response', 'under_review', 'won', 'lost']);
export const createDisputeSchema = z
  .object({
    paymentId: idOf('pay'),
    amount: z.number().int().min(1).optional(),
    reason: z.string().min(1).max(500).optional(),
    status: disputeStatusSchema.default('needs_response'),
  })
  .strict()
  .openapi('CreateDisputeRequest');
export const updateDisputeSchema = z
  .object({ disputeId: idOf('dp'), status: disputeStatusSchema })
  .strict()
  .openapi('UpdateDisputeRequest');
