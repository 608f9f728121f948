import type { z } from 'zod';
import type { OrderWithItems } from '../../commerce/orders';
import { periodStartAt, type BillingInterval } from '../../domain/billing';
import type { Customer, Membership } from '../../generated/prisma/client';
import type { DescribedSubscription } from '../../portal/views';
import { fullName } from '../customers/validators';
import type {
  portalCustomerSchema,
  portalMembershipSchema,
  portalOrderSchema,
  portalPaymentMethodSchema,
  portalSubscriptionSchema,
} from './accountValidators';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toPortalCustomer(
  customer: Customer,
  storeId: string,
  defaultPaymentMethodId: string | null,
): z.input<typeof portalCustomerSchema> {
  return {
    id: customer.id,
    storeId,
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
    name: fullName(customer),
    phone: customer.phone,
    defaultPaymentMethodId,
    createdAt: customer.createdAt.toISOString(),
  };
}

export function toPortalOrder(order: OrderWithItems): z.input<typeof portalOrderSchema> {
  return {
    id: order.id,
    status: order.status,
    currency: order.currency,
    subtotal: order.subtotal,
    discountTotal: order.discountTotal,
    totalAmount: order.totalAmount,
    createdAt: order.createdAt.toISOString(),
    lines: order.items.map((item) => ({
      id: item.id,
      productId: item.productId,
      variantId: item.variantId,
      priceId: item.priceId,
      name: item.productName,
      quantity: item.quantity,
      unitAmount: item.unitAmount,
      totalAmount: item.totalAmount,
    })),
  };
}

/**
 * A subscription as its customer sees it. The current period ends at the next billing date, which
 * is also when a cancel at period end takes effect; then there is no next charge (nextBillingAt null).
 */
export function toPortalSubscription(
  { row, productTitle, variantName, membershipId }: DescribedSubscription,
  nowMs: number,
): z.input<typeof portalSubscriptionSchema> {
  const periodEnd = row.nextBillingAt;
  const schedule = {
    anchorMs: row.billingAnchorAt.getTime(),
    interval: row.interval as BillingInterval,
    intervalCount: row.intervalCount,
  };
  return {
    id: row.id,
    status: row.status,
    optionId: row.optionId,
    productId: row.productId,
    productTitle,
    variantId: row.variantId,
    variantName,
    membershipId,
    quantity: row.quantity,
    price: row.price,
    currency: row.currency,
    interval: row.interval,
    intervalCount: row.intervalCount,
    currentPeriodStart: periodEnd
      ? new Date(periodStartAt(schedule, row.startedAt.getTime(), periodEnd.getTime(), nowMs)).toISOString()
      : null,
    currentPeriodEnd: iso(periodEnd),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    nextBillingAt: row.cancelAtPeriodEnd ? null : iso(row.nextBillingAt),
    trialEnd: iso(row.trialEndsAt),
    pausedUntil: iso(row.pausedUntil),
    canceledAt: iso(row.canceledAt),
    startedAt: row.startedAt.toISOString(),
    paymentMethodId: row.paymentMethodId,
  };
}

export function toPortalMembership(
  row: Membership & {
    program: { id: string; name: string; creditsPerRenewal: number };
    subscription: { currency: string; cancelAtPeriodEnd: boolean };
  },
): z.input<typeof portalMembershipSchema> {
  return {
    id: row.id,
    status: row.status,
    program: row.program,
    subscriptionId: row.subscriptionId,
    billing: row.billing,
    creditsBalance: row.creditsBalance,
    savedToDate: row.savedToDate,
    currency: row.subscription.currency,
    renewsAt: row.subscription.cancelAtPeriodEnd ? null : iso(row.renewsAt),
    cancelAtPeriodEnd: row.subscription.cancelAtPeriodEnd,
    trialEndsAt: iso(row.trialEndsAt),
    graceEndsAt: iso(row.graceEndsAt),
    canceledAt: iso(row.canceledAt),
    startedAt: row.startedAt.toISOString(),
  };
}

export function toPortalPaymentMethod(row: {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
  createdAt: Date;
}): z.input<typeof portalPaymentMethodSchema> {
  // Field by field: whatever else a card row carries (its BIN, its sealed number) never leaves.
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
  };
}
