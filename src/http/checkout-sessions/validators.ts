import { z } from 'zod';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';
import { customerDetailsSchema, fullName } from '../customers/validators';

export const checkoutSessionSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    customerId: z.string(),
    customer: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
    currency: z.string(),
    status: z.enum(['open', 'paid', 'expired']),
    lineItems: z.array(
      z.object({
        id: z.string(),
        priceId: z.string(),
        productId: z.string(),
        variantId: z.string(),
        productName: z.string(),
        quantity: z.number().int(),
        unitAmount: z.number().int(),
        amountSubtotal: z.number().int(),
        offerId: z.string().nullable().openapi({ description: 'The order-bump offer (ofr_) that added this line' }),
      }),
    ),
    promotionCodeIds: z.array(z.string()),
    subtotal: z.number().int().openapi({ description: 'Minor units' }),
    discountTotal: z.number().int().openapi({ description: 'Minor units' }),
    total: z.number().int().openapi({ description: 'Minor units; what a payment charges' }),
    paymentId: z.string().nullable(),
    paidAt: z.string().nullable(),
    expiresAt: z.string(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
  })
  .openapi('CheckoutSession');

export const createCheckoutSessionSchema = z
  .object({
    storeId: idOf('store'),
    customerId: idOf('cus').optional(),
    customer: customerDetailsSchema
      .optional()
      .openapi({ description: 'Used when customerId is absent: matched by email or created' }),
    currency: currencySchema.optional().openapi({ description: "Defaults to the store's base currency" }),
    lineItems: z
      .array(z.object({ priceId: idOf('price'), quantity: z.number().int().min(1).max(10_000) }).strict())
      .min(1)
      .max(100),
    promotionCodes: z.array(z.string().trim().min(1).max(64)).max(5).optional(),
    expiresInMinutes: z
      .number()
      .int()
      .min(5)
      .max(7 * 24 * 60)
      .optional(),
  })
  .strict()
  .refine((body) => (body.customerId === undefined) !== (body.customer === undefined), {
    message: 'give exactly one of customerId or customer',
    path: ['customerId'],
  });

export const expireCheckoutSessionSchema = z.object({ id: idOf('ch') }).strict();
export const checkoutSessionParams = idParam('checkoutSessionId', 'ch');

export function toPublicCheckoutSession(row: {
  id: string;
  storeId: string;
  customerId: string;
  customer: { id: string; email: string; firstName: string | null; lastName: string | null };
  currency: string;
  status: 'open' | 'paid' | 'expired';
  lineItems: {
    id: string;
    priceId: string;
    productId: string;
    variantId: string;
    productName: string;
    quantity: number;
    unitAmount: number;
    amountSubtotal: number;
    offerId: string | null;
  }[];
  promotionCodeIds: string[];
  subtotal: number;
  discountTotal: number;
  total: number;
  paymentId: string | null;
  paidAt: Date | null;
  expiresAt: Date;
  mode: 'test' | 'live';
  createdAt: Date;
}) {
  // An open session past its expiry reads as expired even before anything flips it.
  const status = row.status === 'open' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;
  return {
    id: row.id,
    storeId: row.storeId,
    customerId: row.customerId,
    customer: { id: row.customer.id, email: row.customer.email, name: fullName(row.customer) },
    currency: row.currency,
    status,
    lineItems: row.lineItems.map((line) => ({
      id: line.id,
      priceId: line.priceId,
      productId: line.productId,
      variantId: line.variantId,
      productName: line.productName,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      amountSubtotal: line.amountSubtotal,
      offerId: line.offerId,
    })),
    promotionCodeIds: row.promotionCodeIds,
    subtotal: row.subtotal,
    discountTotal: row.discountTotal,
    total: row.total,
    paymentId: row.paymentId,
    paidAt: row.paidAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
  };
}
