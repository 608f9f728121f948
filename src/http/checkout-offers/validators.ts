import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';

export const offerTypes = ['upsell', 'downsell', 'cross_sell', 'order_bump'] as const;

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
