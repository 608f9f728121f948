import type { Db } from '../../db/prisma';
import type { Membership, MembershipProgram, Subscription } from '../../generated/prisma/client';
import { latestChargeLinks, type LatestChargeLinks } from '../../subscriptions/chargeLinks';
import type { PublicMembership, PublicSubscription } from './validators';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
const noLinks: LatestChargeLinks = { latestOrderId: null, latestPaymentId: null };

/** Subscriptions as the API shows them, with their latest order and payment (two queries for all). */
export async function presentSubscriptions(db: Db, rows: Subscription[]): Promise<PublicSubscription[]> {
  const links = await latestChargeLinks(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPublicSubscription(row, links.get(row.id) ?? noLinks));
}

export async function presentSubscription(db: Db, row: Subscription): Promise<PublicSubscription> {
  return (await presentSubscriptions(db, [row]))[0]!;
}

/** A membership's latest order and payment are its subscription's. */
export async function presentMembership(db: Db, row: Membership): Promise<PublicMembership> {
  const links = await latestChargeLinks(db, [row.subscriptionId]);
  return toPublicMembership(row, links.get(row.subscriptionId) ?? noLinks);
}

function toPublicSubscription(row: Subscription, links: LatestChargeLinks): PublicSubscription {
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
    ...links,
  };
}

function toPublicMembership(row: Membership, links: LatestChargeLinks): PublicMembership {
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
    ...links,
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
