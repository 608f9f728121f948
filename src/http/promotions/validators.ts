import { z } from 'zod';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';
import { maxAmount } from '../../domain/checkoutTotals';

export const promotionSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    name: z.string(),
    discountType: z.enum(['percentage', 'fixed_amount']),
    percentBasisPoints: z.number().int().nullable().openapi({ description: '1% = 100' }),
    amountOff: z.number().int().nullable().openapi({ description: 'Minor units of currency' }),
    currency: z.string().nullable(),
    active: z.boolean(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Promotion');

export const createPromotionSchema = z
  .object({
    storeId: idOf('store'),
    name: z.string().trim().min(1).max(200),
    discountType: z.enum(['percentage', 'fixed_amount']),
    percentBasisPoints: z.number().int().min(1).max(10000).optional(),
    amountOff: z.number().int().min(1).max(maxAmount).optional(),
    currency: currencySchema.optional(),
    active: z.boolean().optional(),
  })
  .strict()
  .superRefine((promo, ctx) => {
    if (
      promo.discountType === 'percentage' &&
      (promo.percentBasisPoints === undefined || promo.amountOff !== undefined || promo.currency !== undefined)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['percentBasisPoints'],
        message: 'a percentage promotion takes percentBasisPoints only',
      });
    }
    if (
      promo.discountType === 'fixed_amount' &&
      (promo.amountOff === undefined || promo.currency === undefined || promo.percentBasisPoints !== undefined)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['amountOff'],
        message: 'a fixed_amount promotion takes amountOff and currency',
      });
    }
  });

export const updatePromotionSchema = z
  .object({
    id: idOf('promo'),
    data: z
      .object({ name: z.string().trim().min(1).max(200), active: z.boolean() })
      .partial()
      .strict(),
  })
  .strict();

export const promotionParams = idParam('promotionId', 'promo');

export function toPublicPromotion(row: {
  id: string;
  storeId: string;
  name: string;
  discountType: 'percentage' | 'fixed_amount';
  percentBasisPoints: number | null;
  amountOff: number | null;
  currency: string | null;
  active: boolean;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
}) {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}
