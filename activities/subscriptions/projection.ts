import type { Prisma } from '../../src/db/prisma';
import { nextBillingAtMs, type SubscriptionState } from '../../src/domain/billingState';

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

/** The subscriptions row written from workflow state (the workflow is the source of truth). */
export function subscriptionRowFromState(state: SubscriptionState) {
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
    paymentMethodId: state.paymentMethodId,
    paidOrdersCount: state.paidOrdersCount,
  } satisfies Prisma.SubscriptionUpdateInput;
}

/** Membership fields that follow the backing subscription. */
export function membershipRowFromState(state: SubscriptionState) {
  return {
    status: state.status,
    renewsAt: state.status === 'canceled' ? null : new Date(nextBillingAtMs(state)),
    canceledAt: dateOrNull(state.canceledAtMs),
    // No paymentMethodId: the portal writes the card on the row (see writeState).
    // While past due the member keeps benefits until the last dunning retry (14 days).
    graceEndsAt: state.dunning ? new Date(state.dunning.failedAtMs + 14 * 24 * 3600 * 1000) : null,
  } satisfies Prisma.MembershipUpdateInput;
}
