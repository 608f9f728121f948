import { z } from 'zod';
import { upsellOfferTypes } from '../../commerce/offers';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';
import { maxAmount } from '../../domain/checkoutTotals';
import type { Offer } from '../../generated/prisma/client';

const priceOverrideSchema = z
  .object({
    unitAmount: z.number().int().min(0).max(maxAmount).openapi({ description: 'Minor units of currency' }),
    currency: currencySchema,
  })
  .strict()
  .openapi({ description: "Charged instead of the price's own amount; the currency must be one the store sells in" });

export const createOfferSchema = z
  .object({
    storeId: idOf('store'),
    type: z.enum(upsellOfferTypes).openapi({
      description: 'upsell and downsell: shown after a purchase; bump: added to a checkout session before payment',
    }),
    title: z.string().trim().min(1).max(200),
    priceId: idOf('price').openapi({ description: 'A price of the store; the product is the price’s product' }),
    quantity: z.number().int().min(1).max(100).optional().openapi({ description: 'Default 1' }),
    priceOverride: priceOverrideSchema.nullable().optional(),
    active: z.boolean().optional(),
  })
  .strict();

export const applyOfferSchema = z.object({ checkoutSessionId: idOf('ch') }).strict();

export const offerSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    type: z.enum(upsellOfferTypes),
    title: z.string(),
    productId: z.string(),
    priceId: z.string(),
    quantity: z.number().int(),
    priceOverride: z.object({ unitAmount: z.number().int(), currency: z.string() }).nullable(),
    active: z.boolean(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Offer');

export const offerParams = idParam('id', 'ofr');

export function toPublicOffer(offer: Offer): z.input<typeof offerSchema> {
  return {
    id: offer.id,
    storeId: offer.storeId,
    type: offer.type as z.infer<typeof offerSchema>['type'],
    title: offer.title,
    productId: offer.productId,
    priceId: offer.priceId,
    quantity: offer.quantity,
    priceOverride:
      offer.overrideAmount !== null && offer.overrideCurrency !== null
        ? { unitAmount: offer.overrideAmount, currency: offer.overrideCurrency }
        : null,
    active: offer.active,
    mode: offer.mode,
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.updatedAt.toISOString(),
  };
}
