import { z } from 'zod';
import '../core/openapi';
import { idOf } from '../../commerce/schemas';
import { subscriptionStatuses } from '../../domain/billing';
import { listResponseSchema } from '../lists';

const isoDate = z.string().openapi({ format: 'date-time' });
const minorUnits = (description: string) =>
  z
    .number()
    .int()
    .openapi({ description: `${description}, minor units` });

export const portalCustomerSchema = z
  .object({
    id: z.string(),
    storeId: z.string().openapi({ description: "The session's store" }),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    defaultPaymentMethodId: z.string().nullable(),
    createdAt: isoDate,
  })
  .openapi('PortalCustomer');

const portalOrderLineSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  variantId: z.string().nullable(),
  priceId: z.string().nullable(),
  name: z.string().openapi({ description: 'Product name when the order was made' }),
  quantity: z.number().int(),
  unitAmount: minorUnits('Price of one'),
  totalAmount: minorUnits('Line total'),
});

export const portalOrderSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    currency: z.string(),
    subtotal: minorUnits('Before discounts'),
    discountTotal: minorUnits('Discounts and credits'),
    totalAmount: minorUnits('Charged'),
    createdAt: isoDate,
    lines: z.array(portalOrderLineSchema),
  })
  .openapi('PortalOrder');

export const portalSubscriptionSchema = z
  .object({
    id: z.string(),
    status: z.enum(subscriptionStatuses),
    optionId: z.string().openapi({ description: 'The recurring price billed' }),
    productId: z.string(),
    productTitle: z.string().nullable(),
    variantId: z.string(),
    variantName: z.string().nullable(),
    membershipId: z.string().nullable().openapi({ description: 'The membership this subscription bills, if any' }),
    quantity: z.number().int(),
    price: minorUnits('Per period (unit price × quantity)'),
    currency: z.string(),
    interval: z.string(),
    intervalCount: z.number().int(),
    currentPeriodStart: isoDate.nullable().openapi({ description: 'Null once canceled' }),
    currentPeriodEnd: isoDate.nullable().openapi({
      description: 'The next billing date, or when a cancel at period end takes effect; null once canceled',
    }),
    cancelAtPeriodEnd: z.boolean(),
    nextBillingAt: isoDate
      .nullable()
      .openapi({ description: 'When the next charge is due; null when canceled or set to cancel at period end' }),
    trialEnd: isoDate.nullable(),
    pausedUntil: isoDate.nullable(),
    canceledAt: isoDate.nullable(),
    startedAt: isoDate,
    paymentMethodId: z.string(),
  })
  .openapi('PortalSubscription');

export const portalMembershipSchema = z
  .object({
    id: z.string(),
    status: z.enum(subscriptionStatuses),
    program: z.object({ id: z.string(), name: z.string(), creditsPerRenewal: z.number().int() }),
    subscriptionId: z.string(),
    billing: z.string(),
    creditsBalance: z.number().int(),
    savedToDate: minorUnits('Saved through credits so far, in `currency`'),
    currency: z.string(),
    renewsAt: isoDate.nullable(),
    cancelAtPeriodEnd: z.boolean(),
    trialEndsAt: isoDate.nullable(),
    graceEndsAt: isoDate.nullable(),
    canceledAt: isoDate.nullable(),
    startedAt: isoDate,
  })
  .openapi('PortalMembership');

export const portalPaymentMethodSchema = z
  .object({
    id: z.string(),
    brand: z.string(),
    last4: z.string(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    isDefault: z.boolean(),
    createdAt: isoDate,
  })
  .openapi('PortalPaymentMethod');

export const portalOrderListSchema = listResponseSchema(portalOrderSchema, 'PortalOrderList');
export const portalSubscriptionListSchema = listResponseSchema(portalSubscriptionSchema, 'PortalSubscriptionList');
export const portalMembershipListSchema = listResponseSchema(portalMembershipSchema, 'PortalMembershipList');
export const portalPaymentMethodListSchema = listResponseSchema(portalPaymentMethodSchema, 'PortalPaymentMethodList');

export const portalCancelRequestSchema = z
  .object({
    subscriptionId: idOf('sub'),
    /** true (default): at the end of the current period; false: now. */
    atPeriodEnd: z.boolean().default(true),
  })
  .strict()
  .openapi('PortalCancelSubscriptionRequest');

export const portalResumeRequestSchema = z
  .object({ subscriptionId: idOf('sub') })
  .strict()
  .openapi('PortalResumeSubscriptionRequest');
