import { z } from 'zod';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';
import { maxAmount } from '../../domain/checkoutTotals';

export const priceSchema = z
  .object({
    id: z.string(),
    productId: z.string(),
    variantId: z.string(),
    unitAmount: z.number().int().openapi({ description: 'Integer minor units of currency' }),
    currency: z.string(),
    type: z.enum(['one_time', 'recurring']),
    interval: z.enum(['day', 'week', 'month', 'year']).nullable(),
    intervalCount: z.number().int().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('Price');

export const variantSchema = z
  .object({ id: z.string(), name: z.string(), sku: z.string().nullable(), prices: z.array(priceSchema) })
  .openapi('Variant');

export const productSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    active: z.boolean(),
    isShippable: z.boolean(),
    isTaxable: z.boolean(),
    taxCode: z.string().nullable(),
    weightGrams: z.number().int().nullable(),
    variants: z.array(variantSchema),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Product');
export type ProductOut = z.infer<typeof productSchema>;

const priceInputFields = {
  unitAmount: z
    .number()
    .int()
    .min(0)
    .max(maxAmount)
    .openapi({ description: 'Integer minor units (cents; yen for JPY)' }),
  currency: currencySchema,
  type: z.enum(['one_time', 'recurring']).default('one_time'),
  interval: z.enum(['day', 'week', 'month', 'year']).optional(),
  intervalCount: z.number().int().min(1).max(365).optional(),
};

function checkInterval(
  price: { type: 'one_time' | 'recurring'; interval?: string; intervalCount?: number },
  ctx: z.RefinementCtx,
): void {
  if (price.type === 'recurring' && !price.interval)
    ctx.addIssue({ code: 'custom', path: ['interval'], message: 'a recurring price needs an interval' });
  if (price.type === 'one_time' && (price.interval || price.intervalCount)) {
    ctx.addIssue({ code: 'custom', path: ['interval'], message: 'a one_time price has no interval' });
  }
}

export const priceInputSchema = z.object(priceInputFields).strict().superRefine(checkInterval);
export type PriceInput = z.infer<typeof priceInputSchema>;

export const variantInputSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    sku: z.string().trim().min(1).max(100).optional(),
    prices: z.array(priceInputSchema).max(50).default([]),
  })
  .strict();

const productFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(5000).nullable().optional(),
  active: z.boolean().optional(),
  isShippable: z.boolean().optional(),
  isTaxable: z.boolean().optional(),
  taxCode: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .openapi({ description: 'Tax category code for the tax engine' }),
  weightGrams: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .nullable()
    .optional()
    .openapi({ description: 'Shipping weight in grams' }),
};

export const createProductSchema = z
  .object({ storeId: idOf('store'), ...productFields, variants: z.array(variantInputSchema).min(1).max(100) })
  .strict();
export type CreateProductInput = z.infer<typeof createProductSchema>;

/** `PUT /products/{productId}` body. */
export const updateProductSchema = z.object({ updatedData: z.object(productFields).partial().strict() }).strict();

// One strict object: an intersection (`.and`) would let each side ignore the other's keys and accept unknown ones.
export const createPriceSchema = z
  .object({ variantId: idOf('var'), ...priceInputFields })
  .strict()
  .superRefine(checkInterval);

export const updatePriceSchema = z
  .object({ id: idOf('price'), data: z.object({ active: z.boolean() }).strict() })
  .strict()
  .openapi({
    description:
      'Amount, currency and interval of a price never change (orders and subscriptions refer to it); create a new price instead',
  });

export const productParams = idParam('productId', 'prod');
export const priceParams = idParam('priceId', 'price');

type PriceRow = {
  id: string;
  variantId: string;
  unitAmount: number;
  currency: string;
  type: 'one_time' | 'recurring';
  interval: 'day' | 'week' | 'month' | 'year' | null;
  intervalCount: number | null;
  active: boolean;
  createdAt: Date;
};

export function toPublicPrice(row: PriceRow, productId: string) {
  return {
    id: row.id,
    productId,
    variantId: row.variantId,
    unitAmount: row.unitAmount,
    currency: row.currency,
    type: row.type,
    interval: row.interval,
    intervalCount: row.intervalCount,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toPublicProduct(row: {
  id: string;
  storeId: string;
  name: string;
  description: string | null;
  active: boolean;
  isShippable: boolean;
  isTaxable: boolean;
  taxCode: string | null;
  weightGrams: number | null;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
  variants: { id: string; name: string; sku: string | null; prices: PriceRow[] }[];
}): ProductOut {
  return {
    id: row.id,
    storeId: row.storeId,
    name: row.name,
    description: row.description,
    active: row.active,
    isShippable: row.isShippable,
    isTaxable: row.isTaxable,
    taxCode: row.taxCode,
    weightGrams: row.weightGrams,
    variants: row.variants.map((variant) => ({
      id: variant.id,
      name: variant.name,
      sku: variant.sku,
      prices: variant.prices.map((price) => toPublicPrice(price, row.id)),
    })),
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
