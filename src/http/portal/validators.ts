import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import { cardAliasField, checkAlias } from '../core/aliases';
import { billingCard, membershipSchema, subscriptionSchema, withBillingCard } from '../subscriptions/validators';

export const switchRequestSchema = z
  .object({
    target: z.discriminatedUnion('type', [
      z.object({ type: z.literal('subscription'), subscriptionId: idOf('sub') }).strict(),
      z.object({ type: z.literal('membership'), membershipId: idOf('mem') }).strict(),
    ]),
    /** The recurring price (price_) to move to; for a membership, the price of another program. */
    optionId: idOf('price'),
  })
  .strict()
  .openapi('PortalSwitchRequest');
export type SwitchRequestBody = z.infer<typeof switchRequestSchema>;

export const portalOperationStatuses = ['paid', 'requires_action', 'declined'] as const;

export const switchResponseSchema = z
  .object({
    subscription: subscriptionSchema.nullable(),
    membership: membershipSchema.nullable(),
    orderId: z.string().nullable(),
    status: z.enum(portalOperationStatuses),
    redirectUrl: z.string().nullable(),
    /** Integer minor units charged now (new price less the unused share of the old one). */
    amountCharged: z.number().int(),
    declineCode: z.string().nullable(),
  })
  .openapi('PortalSwitchResponse');

export const redeemRequestSchema = z
  .object({ productId: idOf('prod'), variantId: idOf('var'), quantity: z.number().int().min(1).max(1000) })
  .strict()
  .openapi('PortalRedeemCreditsRequest');

export const redeemResponseSchema = z
  .object({
    orderId: z.string(),
    balance: z.number().int(),
    status: z.enum(portalOperationStatuses),
    redirectUrl: z.string().nullable(),
  })
  .openapi('PortalRedeemCreditsResponse');

export const defaultPaymentMethodRequestSchema = z
  .object({
    paymentMethodId: billingCard,
    paymentInstrumentId: cardAliasField('paymentMethodId', 'paymentInstrumentId'),
  })
  .strict()
  .superRefine((body, ctx) => checkAlias(body, ctx, 'paymentMethodId', 'paymentInstrumentId', true))
  .transform(withBillingCard)
  .openapi('PortalDefaultPaymentMethodRequest');

export const okResponseSchema = z.object({ ok: z.literal(true) });
