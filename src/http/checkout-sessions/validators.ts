import type { Request } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { verifiedDomainsOf } from '../../checkout/hostedPage/hosts';
import { hostedPageUrl } from '../../checkout/hostedPage/links';
import type { Db } from '../../db/prisma';
import { baseUrlSeenBy, engineBaseUrl } from '../../threeds/returnLink';
import { currencySchema, idOf, idParam, shopperUrlSchema } from '../../commerce/schemas';
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
        titleTrans: z
          .record(z.string(), z.string())
          .nullable()
          .openapi({ description: "The line's title by language code; productName is the store's default" }),
      }),
    ),
    promotionCodeIds: z.array(z.string()),
    subtotal: z.number().int().openapi({ description: 'Minor units' }),
    discountTotal: z.number().int().openapi({ description: 'Minor units' }),
    total: z.number().int().openapi({ description: 'Minor units; what a payment charges' }),
    paymentId: z.string().nullable(),
    paidAt: z.string().nullable(),
    expiresAt: z.string(),
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    locale: z.string().nullable(),
    funnelSessionId: z
      .string()
      .nullable()
      .openapi({ description: 'The funnel session (fs_) this session is the checkout of' }),
    url: z.string().openapi({
      description: 'The hosted payment page of this session: a signed link that stops working when the session expires',
    }),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
  })
  .openapi('CheckoutSession');

/** Language codes: `de`, `pt-BR`, `zh-Hant` (BCP 47 language with an optional script or region). */
export const languageCodeSchema = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z]{4})?(-([A-Z]{2}|[0-9]{3}))?$/, 'a language code such as de or pt-BR');

export const createCheckoutSessionSchema = z
  .object({
    storeId: idOf('store'),
    customerId: idOf('cus').optional(),
    customer: customerDetailsSchema
      .optional()
      .openapi({ description: 'Used when customerId is absent: matched by email or created' }),
    currency: currencySchema.optional().openapi({ description: "Defaults to the store's base currency" }),
    lineItems: z
      .array(
        z
          .object({
            priceId: idOf('price'),
            quantity: z.number().int().min(1).max(10_000),
            titleTrans: z
              .record(languageCodeSchema, z.string().trim().min(1).max(200))
              .refine((titles) => Object.keys(titles).length <= 50, 'at most 50 languages')
              .optional()
              .openapi({ description: "The line's title by language code, shown on the hosted page" }),
          })
          .strict(),
      )
      .min(1)
      .max(100),
    promotionCodes: z.array(z.string().trim().min(1).max(64)).max(5).optional(),
    expiresInMinutes: z
      .number()
      .int()
      .min(5)
      .max(7 * 24 * 60)
      .optional(),
    successUrl: shopperUrlSchema('successUrl').openapi({
      description: 'Where the hosted page sends a shopper who paid',
    }),
    cancelUrl: shopperUrlSchema('cancelUrl').openapi({
      description: 'Where the hosted page sends a shopper who cancels',
    }),
    locale: languageCodeSchema
      .optional()
      .openapi({ description: "The shopper's language; the hosted page uses the browser's when absent" }),
    funnelSessionId: idOf('fs').optional().openapi({
      description:
        "The active funnel session (fs_) this session is the checkout of, of the same store and customer: after paying, the hosted page goes on to the funnel's offers",
    }),
  })
  .strict()
  .refine((body) => (body.customerId === undefined) !== (body.customer === undefined), {
    message: 'give exactly one of customerId or customer',
    path: ['customerId'],
  });

export const expireCheckoutSessionSchema = z.object({ id: idOf('ch') }).strict();
export const checkoutSessionParams = idParam('checkoutSessionId', 'ch');

/** The answer for a session; `url` is its hosted page link (src/checkout/hostedPage/links.ts). */
export function toPublicCheckoutSession(
  row: {
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
      titleTrans: unknown;
    }[];
    promotionCodeIds: string[];
    subtotal: number;
    discountTotal: number;
    total: number;
    paymentId: string | null;
    paidAt: Date | null;
    expiresAt: Date;
    successUrl: string | null;
    cancelUrl: string | null;
    locale: string | null;
    funnelSessionId: string | null;
    mode: 'test' | 'live';
    createdAt: Date;
  },
  url: string,
) {
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
      titleTrans: (line.titleTrans as Record<string, string> | null) ?? null,
    })),
    promotionCodeIds: row.promotionCodeIds,
    subtotal: row.subtotal,
    discountTotal: row.discountTotal,
    total: row.total,
    paymentId: row.paymentId,
    paidAt: row.paidAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
    locale: row.locale,
    funnelSessionId: row.funnelSessionId,
    url,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The answers for sessions read in one request: each `url` is on its store's verified custom domain
 * (https) when it has one, else on the engine's public base URL (one query for all the stores).
 */
export async function presentCheckoutSessions(
  db: Db,
  config: Config,
  req: Request,
  rows: Parameters<typeof toPublicCheckoutSession>[0][],
) {
  const domains = await verifiedDomainsOf(
    db,
    rows.map((row) => row.storeId),
  );
  const engine = engineBaseUrl(config, baseUrlSeenBy(req));
  return rows.map((row) => {
    const domain = domains.get(row.storeId);
    return toPublicCheckoutSession(row, hostedPageUrl(config, row, domain ? `https://${domain}` : engine));
  });
}

export async function presentCheckoutSession(
  db: Db,
  config: Config,
  req: Request,
  row: Parameters<typeof toPublicCheckoutSession>[0],
) {
  return (await presentCheckoutSessions(db, config, req, [row]))[0]!;
}
