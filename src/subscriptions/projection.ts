import type { Prisma } from '../db/prisma';
import { nextBillingAtMs, type SubscriptionState } from '../domain/billingState';

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

/** The subscriptions row a subscription starts with: its state and its first card. */
export function subscriptionRowFromState(state: SubscriptionState) {
  return { ...subscriptionProgressFromState(state), paymentMethodId: state.paymentMethodId };
}

/**
 * What the workflow's saves write: the row from its state, without the card. The portal writes the
 * card (one transaction with the customer's default) and the workflow reads it from the row, so a
 * save made before the workflow heard of a change cannot put the old card back.
 */
export function subscriptionProgressFromState(state: SubscriptionState) {
  return {
    status: state.status,
    productId: state.productId,
    variantId: state.variantId,
    optionId: state.optionId,
    currency: state.currency,
    quantity: state.quantity,
    price: state.price,
    interval: state.interval,
    intervalCount: state.intervalCount,
    billingAnchorAt: new Date(state.anchorAtMs),
    nextBillingAt: state.status === 'canceled' ? null : new Date(nextBillingAtMs(state)),
    trialEndsAt: dateOrNull(state.trialEndsAtMs),
    pausedUntil: dateOrNull(state.pausedUntilMs),
    canceledAt: dateOrNull(state.canceledAtMs),
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    cancelReasonId: state.cancelReasonId,
    skippedDates: state.skippedDatesMs.map((ms) => new Date(ms)),
    lastPaymentFailedAt: dateOrNull(state.lastPaymentFailedAtMs),
    paidOrdersCount: state.paidOrdersCount,
  } satisfies Prisma.SubscriptionUpdateInput;
}

/** Membership fields that follow the backing subscription. */
export function membershipRowFromState(state: SubscriptionState) {
  return {
    status: state.status,
    renewsAt: state.status === 'canceled' ? null : new Date(nextBillingAtMs(state)),
    canceledAt: dateOrNull(state.canceledAtMs),
    // No paymentMethodId: as for the subscription (subscriptionProgressFromState).
    // While past due the member keeps benefits until the last dunning retry (14 days).
    graceEndsAt: state.dunning ? new Date(state.dunning.failedAtMs + 14 * 24 * 3600 * 1000) : null,
  } satisfies Prisma.MembershipUpdateInput;
}
