import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';

export const promotionCodeSchema = z
  .object({
    id: z.string(),
    promotionId: z.string(),
    code: z.string(),
    active: z.boolean(),
    usageLimit: z.number().int().nullable(),
    timesRedeemed: z.number().int(),
    firstTimeCustomersOnly: z.boolean(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PromotionCode');

/** Codes are case-insensitive: stored and matched upper case. */
export const codeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'code must be 1-64 letters, digits, "-" or "_"')
  .transform((code) => code.toUpperCase());

const codeFields = {
  code: codeSchema,
  usageLimit: z
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .nullable()
    .openapi({ description: 'Maximum redemptions; null = unlimited' }),
  active: z.boolean(),
  firstTimeCustomersOnly: z.boolean(),
};

export const createPromotionCodeSchema = z
  .object({ promotionId: idOf('promo'), ...codeFields })
  .partial({ usageLimit: true, active: true, firstTimeCustomersOnly: true })
  .strict();

/** `POST /promotion-codes/update` body. */
export const updatePromotionCodeSchema = z
  .object({ id: idOf('pc'), data: z.object(codeFields).partial().strict() })
  .strict();

export const promotionCodeParams = idParam('promotionCodeId', 'pc');

export function toPublicPromotionCode(row: {
  id: string;
  promotionId: string;
  code: string;
  active: boolean;
  usageLimit: number | null;
  timesRedeemed: number;
  firstTimeCustomersOnly: boolean;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
}) {
  return {
    id: row.id,
    promotionId: row.promotionId,
    code: row.code,
    active: row.active,
    usageLimit: row.usageLimit,
    timesRedeemed: row.timesRedeemed,
    firstTimeCustomersOnly: row.firstTimeCustomersOnly,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
