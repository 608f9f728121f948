import { z } from 'zod';
import { offerTypes, type CheckoutOfferWithReferences } from '../../commerce/checkoutOffers';
import { idOf, idParam } from '../../commerce/schemas';

const titleTransSchema = z
  .record(
    z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'language code such as en or en-US'),
    z.string().trim().min(1).max(300),
  )
  .refine((titles) => Object.keys(titles).length >= 1 && Object.keys(titles).length <= 50, 'between 1 and 50 titles')
  .openapi({ description: 'Language code -> title', example: { en: 'Add a second pair', de: 'Zweites Paar' } });

const lineItemsSchema = z
  .array(z.object({ priceId: idOf('price'), quantity: z.number().int().min(1).max(10_000) }).strict())
  .min(1)
  .max(50);

export const createCheckoutOfferSchema = z
  .object({
    storeId: idOf('store'),
    type: z.enum(offerTypes),
    titleTrans: titleTransSchema,
    lineItems: lineItemsSchema,
    promotionIds: z.array(idOf('promo')).max(10).optional(),
    active: z.boolean().optional(),
  })
  .strict();

export const updateCheckoutOfferSchema = z
  .object({
    id: idOf('co'),
    data: z
      .object({
        type: z.enum(offerTypes),
        titleTrans: titleTransSchema,
        lineItems: lineItemsSchema,
        promotionIds: z.array(idOf('promo')).max(10),
        active: z.boolean(),
      })
      .partial()
      .strict(),
  })
  .strict();

export const checkoutOfferSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    type: z.string(),
    titleTrans: z.record(z.string(), z.string()),
    lineItems: z.array(
      z.object({
        priceId: z.string(),
        quantity: z.number().int(),
        unitAmount: z.number().int().nullable(),
        currency: z.string().nullable(),
        productName: z.string().nullable(),
      }),
    ),
    promotionIds: z.array(z.string()),
    promotions: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        discountType: z.string(),
        percentBasisPoints: z.number().int().nullable(),
        amountOff: z.number().int().nullable(),
        currency: z.string().nullable(),
        active: z.boolean(),
      }),
    ),
    active: z.boolean(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CheckoutOffer');

export const checkoutOfferParams = idParam('id', 'co');

/** The offer with its line items priced and its promotions expanded (a missing price shows nulls). */
export function toPublicCheckoutOffer({
  offer,
  lineItems,
  prices,
  promotions,
}: CheckoutOfferWithReferences): z.input<typeof checkoutOfferSchema> {
  return {
    id: offer.id,
    storeId: offer.storeId,
    type: offer.type,
    titleTrans: offer.titleTrans as Record<string, string>,
    lineItems: lineItems.map((item) => {
      const price = prices.find((candidate) => candidate.id === item.priceId);
      return {
        priceId: item.priceId,
        quantity: item.quantity,
        unitAmount: price?.unitAmount ?? null,
        currency: price?.currency ?? null,
        productName: price?.variant.product.name ?? null,
      };
    }),
    promotionIds: offer.promotionIds,
    promotions: offer.promotionIds.flatMap((id) => {
      const promotion = promotions.find((candidate) => candidate.id === id);
      if (!promotion) return [];
      const { name, discountType, percentBasisPoints, amountOff, currency, active } = promotion;
      return [{ id, name, discountType, percentBasisPoints, amountOff, currency, active }];
    }),
    active: offer.active,
    mode: offer.mode,
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.updatedAt.toISOString(),
  };
}
