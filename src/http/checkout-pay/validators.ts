import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import { customerIpSchema, initiatedBySchema, returnUrlSchema, browserInfoSchema } from '../payments/validators';
import { processPaymentResponseSchema } from '../payments/views';
import { cardAliasField, checkAlias } from '../core/aliases';
import '../core/openapi';

/**
 * `POST /checkout/pay-v2`. `blikCode` is the API's unnamed 6-character field. The
 * card is required only when the session has a total to charge (the route checks, it knows the total).
 */
export const payV2Schema = z
  .object({
    checkoutSessionId: idOf('ch'),
    paymentInstrumentId: idOf('pi').optional().openapi({
      description:
        'The card to charge (or its alias paymentMethodId); not needed when the session total is 0 (a free cart)',
    }),
    paymentMethodId: cardAliasField('paymentInstrumentId', 'paymentMethodId'),
    initiatedBy: initiatedBySchema.default('customer'),
    source: z.enum(['upsell', 'checkout', 'offer', 'missing_club', 'forced']).default('checkout'),
    paymentFlowId: idOf('flow').optional().openapi({ description: "Overrides the store's default payment flow" }),
    threedsSessionId: idOf('3ds').optional(),
    blikCode: z.string().length(6).optional().openapi({ description: 'A 6-character payment code (BLIK-style)' }),
    customerIp: customerIpSchema,
    returnUrl: returnUrlSchema,
    browserInfo: browserInfoSchema,
  })
  .strict()
  .superRefine((body, ctx) => checkAlias(body, ctx, 'paymentInstrumentId', 'paymentMethodId', false))
  .transform(({ paymentMethodId, paymentInstrumentId, ...body }) => ({
    ...body,
    paymentInstrumentId: paymentInstrumentId ?? paymentMethodId,
  }))
  .openapi('PayV2Request');

export const payV2ResponseSchema = processPaymentResponseSchema;
