import type { Membership, MembershipProgram, Subscription } from '../../generated/prisma/client';
import type { PublicMembership, PublicSubscription } from './validators';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toPublicSubscription(row: Subscription): PublicSubscription {
  return {
    id: row.id,
    customerId: row.customerId,
    storeId: row.storeId,
    status: row.status,
    productId: row.productId,
    variantId: row.variantId,
    optionId: row.optionId,
    currency: row.currency,
    quantity: row.quantity,
    price: row.price,
    interval: row.interval,
    intervalCount: row.intervalCount,
    startedAt: row.startedAt.toISOString(),
    nextBillingAt: iso(row.nextBillingAt),
    trialEndsAt: iso(row.trialEndsAt),
    pausedUntil: iso(row.pausedUntil),
    canceledAt: iso(row.canceledAt),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cancelReasonId: row.cancelReasonId,
    skippedDates: row.skippedDates.map((date) => date.toISOString()),
    lastPaymentFailedAt: iso(row.lastPaymentFailedAt),
    paymentMethodId: row.paymentMethodId,
    shippingAddressId: row.shippingAddressId,
    paidOrdersCount: row.paidOrdersCount,
    nextOrderAddOns: Array.isArray(row.nextOrderAddOns)
      ? (row.nextOrderAddOns as PublicSubscription['nextOrderAddOns'])
      : [],
    createdAt: row.createdAt.toISOString(),
  };
}

export function toPublicMembership(row: Membership): PublicMembership {
  return {
    id: row.id,
    customerId: row.customerId,
    storeId: row.storeId,
    programId: row.programId,
    subscriptionId: row.subscriptionId,
    status: row.status,
    billing: row.billing,
    startedAt: row.startedAt.toISOString(),
    renewsAt: iso(row.renewsAt),
    trialEndsAt: iso(row.trialEndsAt),
    graceEndsAt: iso(row.graceEndsAt),
    canceledAt: iso(row.canceledAt),
    creditsBalance: row.creditsBalance,
    savedToDate: row.savedToDate,
    paymentMethodId: row.paymentMethodId,
  };
}

export function toPublicProgram(row: MembershipProgram) {
  return {
    id: row.id,
    storeId: row.storeId,
    name: row.name,
    optionId: row.optionId,
    creditsPerRenewal: row.creditsPerRenewal,
    createdAt: row.createdAt.toISOString(),
  };
}
