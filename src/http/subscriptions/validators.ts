import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';
import { subscriptionStatuses } from '../../domain/billing';
import { cardAliasField, checkAlias } from '../core/aliases';

/** No address resource exists to check it against: stored and returned as given. */
const shippingAddressId = z.string().min(1).max(64);
const isoDate = z.string().nullable();

/** A stored card (pi_) of the customer; `paymentInstrumentId` (the payments API's name) is its alias. */
export const billingCard = idOf('pi').optional().openapi({
  description:
    'A stored card (pi_) of the customer. Required, under this name or its alias paymentInstrumentId (the name payments use for the same card)',
});

/** The body with its card under `paymentMethodId`, whichever name it came under (checkAlias ran first). */
export function withBillingCard<T extends { paymentMethodId?: string; paymentInstrumentId?: string }>({
  paymentMethodId,
  paymentInstrumentId,
  ...body
}: T): Omit<T, 'paymentMethodId' | 'paymentInstrumentId'> & { paymentMethodId: string } {
  return { ...body, paymentMethodId: (paymentMethodId ?? paymentInstrumentId)! };
}
const latestLinks = {
  latestOrderId: z.string().nullable().openapi({
    description:
      "The order of the newest paid charge (first, renewal, retry or switch); its payment's orderId names it too. Null before the first paid charge",
  }),
  latestPaymentId: z.string().nullable().openapi({
    description:
      'The payment of the newest charge attempt, declined ones included (a past_due subscription shows its failed renewal). Null before the first charge',
  }),
};

export const subscriptionParams = idParam('subscriptionId', 'sub');
export const membershipParams = idParam('membershipId', 'mem');

/** A subscription's fields; `price` is the per-period amount in integer minor units, `optionId` the billed price id. */
export const subscriptionSchema = z
  .object({
    id: z.string(),
    customerId: z.string(),
    storeId: z.string(),
    status: z.enum(subscriptionStatuses),
    productId: z.string(),
    variantId: z.string(),
    optionId: z.string(),
    currency: z.string(),
    quantity: z.number().int(),
    price: z.number().int(),
    interval: z.string(),
    intervalCount: z.number().int(),
    startedAt: z.string(),
    nextBillingAt: isoDate,
    trialEndsAt: isoDate,
    pausedUntil: isoDate,
    canceledAt: isoDate,
    cancelAtPeriodEnd: z.boolean(),
    cancelReasonId: z.string().nullable(),
    skippedDates: z.array(z.string()),
    lastPaymentFailedAt: isoDate,
    paymentMethodId: z.string(),
    shippingAddressId: z.string().nullable(),
    paidOrdersCount: z.number().int(),
    nextOrderAddOns: z.array(
      z.object({
        productId: z.string(),
        variantId: z.string(),
        quantity: z.number().int(),
        unitPrice: z.number().int(),
      }),
    ),
    createdAt: z.string(),
    ...latestLinks,
  })
  .openapi('Subscription');
export type PublicSubscription = z.infer<typeof subscriptionSchema>;

export const membershipSchema = z
  .object({
    id: z.string(),
    customerId: z.string(),
    storeId: z.string(),
    programId: z.string(),
    subscriptionId: z.string(),
    status: z.enum(subscriptionStatuses),
    billing: z.string(),
    startedAt: z.string(),
    renewsAt: isoDate,
    trialEndsAt: isoDate,
    graceEndsAt: isoDate,
    canceledAt: isoDate,
    creditsBalance: z.number().int(),
    /** Integer minor units. */
    savedToDate: z.number().int(),
    paymentMethodId: z.string(),
    ...latestLinks,
  })
  .openapi('Membership');
export type PublicMembership = z.infer<typeof membershipSchema>;

export const createSubscriptionSchema = z
  .object({
    storeId: idOf('store'),
    customerId: idOf('cus'),
    /** A recurring price (price_) of a product of the store. */
    priceId: idOf('price'),
    paymentMethodId: billingCard,
    paymentInstrumentId: cardAliasField('paymentMethodId', 'paymentInstrumentId'),
    quantity: z.number().int().min(1).max(1000).default(1),
    trialDays: z.number().int().min(0).max(730).default(0),
    shippingAddressId: shippingAddressId.optional(),
  })
  .strict()
  .superRefine((body, ctx) => checkAlias(body, ctx, 'paymentMethodId', 'paymentInstrumentId', true))
  .transform(withBillingCard)
  .openapi('CreateSubscriptionRequest');
export type CreateSubscriptionRequest = z.infer<typeof createSubscriptionSchema>;

export const subscriptionSortFields = ['createdAt', 'nextBillingAt', 'startedAt', 'status', 'price'] as const;

/** The simple pagination of subscriptions: {page, per_page, sort, sort_order}. */
export const listSubscriptionsSchema = z
  .object({
    page: z.number().int().min(1).default(1),
    per_page: z.number().int().min(1).max(100).default(20),
    sort: z.enum(subscriptionSortFields).default('createdAt'),
    sort_order: z.enum(['asc', 'desc']).default('desc'),
    filters: z
      .object({
        status: z.array(z.enum(subscriptionStatuses)).min(1).optional(),
        customerId: idOf('cus').optional(),
        storeId: idOf('store').optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('ListSubscriptionsRequest');
export type ListSubscriptionsRequest = z.infer<typeof listSubscriptionsSchema>;

export const subscriptionListSchema = z
  .object({
    data: z.array(subscriptionSchema),
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    total_pages: z.number().int(),
  })
  .openapi('SubscriptionList');

export const cancelSubscriptionSchema = z
  .object({ atPeriodEnd: z.boolean().default(false), cancelReasonId: z.string().min(1).max(64).optional() })
  .strict();
export const pauseSubscriptionSchema = z.object({ until: z.iso.datetime({ offset: true }) }).strict();
export const emptyBodySchema = z.object({}).strict();
/**
 * `date` (the subscription's `nextBillingAt`) names the date to skip, which makes the request
 * idempotent: the same date twice is 409 DATE_ALREADY_SKIPPED. Without it the next date is skipped.
 */
export const skipNextSchema = z.object({ date: z.iso.datetime({ offset: true }).optional() }).strict();

export const createMembershipProgramSchema = z
  .object({
    storeId: idOf('store'),
    name: z.string().min(1).max(200),
    optionId: idOf('price'),
    creditsPerRenewal: z.number().int().min(0).max(1_000_000),
  })
  .strict()
  .openapi('CreateMembershipProgramRequest');
export const membershipProgramSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    name: z.string(),
    optionId: z.string(),
    creditsPerRenewal: z.number().int(),
    createdAt: z.string(),
  })
  .openapi('MembershipProgram');

export const createMembershipSchema = z
  .object({
    programId: idOf('mprog'),
    customerId: idOf('cus'),
    paymentMethodId: billingCard,
    paymentInstrumentId: cardAliasField('paymentMethodId', 'paymentInstrumentId'),
    trialDays: z.number().int().min(0).max(730).default(0),
  })
  .strict()
  .superRefine((body, ctx) => checkAlias(body, ctx, 'paymentMethodId', 'paymentInstrumentId', true))
  .transform(withBillingCard)
  .openapi('CreateMembershipRequest');
