import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { nextStatus, switchCharge } from '../../src/domain/billing';
import { dunningRetryAt } from '../../src/domain/billingRetry';
import {
  currentPeriodStartMs,
  nextBillingAtMs,
  type SubscriptionChargeInput,
  type SubscriptionChargeReason,
  type SubscriptionChargeResult,
  type SubscriptionState,
} from '../../src/domain/billingState';
import type { SwitchAnswer, SwitchRequest } from './messages';
import { assertCanSwitch } from './guards';
import { chargeAsChildPayment } from './payment';
import { saveState } from './save';

// A switch starts the payment workflow from an activity (activities/subscriptionsCharge.ts) so the
// portal gets an early requires_action, then it waits for the end, which may include a 15-minute
// 3DS challenge window. A decline is a result, never an exception.
const { chargeSubscription, awaitSubscriptionPayment } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '2 seconds' },
});
const { recordSubscriptionCharge, reserveCardReattempt } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20 },
});

function chargeInput(
  state: SubscriptionState,
  amount: number,
  reason: SubscriptionChargeReason,
  chargeKey: string,
): SubscriptionChargeInput {
  return {
    subscriptionId: state.subscriptionId,
    accountId: state.accountId,
    mode: state.mode,
    storeId: state.storeId,
    customerId: state.customerId,
    paymentMethodId: state.paymentMethodId,
    amount,
    currency: state.currency,
    reason,
    chargeKey,
    initiatedBy: reason === 'switch' ? 'customer' : 'merchant',
  };
}

/** Charges the due billing date (or dunning retry) and moves the state by the outcome. */
export async function chargeRenewal(state: SubscriptionState, now: number): Promise<void> {
  const dunning = state.dunning;
  const reason: SubscriptionChargeReason = dunning
    ? 'dunning_retry'
    : state.status === 'trialing'
      ? 'trial_conversion'
      : state.paidOrdersCount === 0
        ? 'first_charge'
        : 'renewal';
  const chargeKey = `${state.subscriptionId}:c${state.cycle}:a${dunning ? dunning.retryIndex + 1 : 0}`;

  let result: SubscriptionChargeResult | null = null;
  if (dunning) {
    // A hard decline (do-not-retry) is never reattempted on the same card; a new card gets a chance.
    if (dunning.hardDeclinedPaymentMethodId === state.paymentMethodId) {
      await failRetry(state, now, true, 'reattempt_refused_hard_decline');
      return;
    }
    const decision = await reserveCardReattempt({
      chargeKey,
      accountId: state.accountId,
      mode: state.mode,
      subscriptionId: state.subscriptionId,
      paymentMethodId: state.paymentMethodId,
      atMs: now,
      hardDeclined: false,
    });
    if (!decision.allowed) {
      await failRetry(state, now, true, `reattempt_refused_${decision.reason}`);
      return;
    }
  }
  const input = chargeInput(state, state.price, reason, chargeKey);
  result = await chargeAsChildPayment(input);

  if (result.status === 'paid') {
    const event: 'trial_converted' | 'renewal_paid' | 'dunning_recovered' = dunning
      ? 'dunning_recovered'
      : state.status === 'trialing'
        ? 'trial_converted'
        : 'renewal_paid';
    state.status = nextStatus(state.status, event);
    const paidPeriodStart = nextBillingAtMs(state);
    state.dunning = null;
    state.cycle += 1;
    state.paidOrdersCount += 1;
    state.chargesThisRun += 1;
    await recordSubscriptionCharge({
      state: { ...state },
      chargeKey,
      paymentId: result.paymentId,
      amount: state.price,
      reason,
      eventType: 's_subscription_renewed',
      properties: {
        transition: event,
        periodStart: new Date(paidPeriodStart).toISOString(),
        nextBillingAt: new Date(nextBillingAtMs(state)).toISOString(),
      },
    });
    return;
  }

  // Declined, or a challenge nobody is present to complete (merchant-initiated): a failure.
  state.lastPaymentFailedAtMs = now;
  if (!dunning) {
    state.status = nextStatus(state.status, 'renewal_failed');
    state.dunning = {
      failedAtMs: now,
      retryIndex: 0,
      hardDeclinedPaymentMethodId: result.hardDecline ? state.paymentMethodId : null,
    };
    state.chargesThisRun += 1;
    await saveState({
      state: { ...state },
      eventType: 's_subscription_payment_failed',
      properties: {
        status: 'past_due',
        declineCode: result.declineCode,
        nextRetryAt: new Date(dunningRetryAt(now, 0)!).toISOString(),
      },
    });
    return;
  }
  if (result.hardDecline) dunning.hardDeclinedPaymentMethodId = state.paymentMethodId;
  await failRetry(state, now, false, result.declineCode);
}

/** A dunning retry failed (or was not allowed): schedule the next one, or cancel when exhausted. */
async function failRetry(
  state: SubscriptionState,
  now: number,
  refused: boolean,
  declineCode: string | null,
): Promise<void> {
  const dunning = state.dunning!;
  const nextIndex = dunning.retryIndex + 1;
  const nextRetryAt = dunningRetryAt(dunning.failedAtMs, nextIndex);
  if (nextRetryAt === null) {
    state.status = nextStatus(state.status, 'dunning_exhausted');
    state.canceledAtMs = now;
    state.cancelReasonId = 'dunning_exhausted';
    state.dunning = null;
    await saveState({
      state: { ...state },
      eventType: 's_subscription_expired',
      properties: { reason: 'dunning_exhausted', declineCode },
    });
    return;
  }
  state.status = nextStatus(state.status, 'dunning_retry_failed');
  state.dunning = { ...dunning, retryIndex: nextIndex };
  await saveState({
    state: { ...state },
    eventType: 's_subscription_payment_failed',
    properties: { declineCode, refused, retry: nextIndex, nextRetryAt: new Date(nextRetryAt).toISOString() },
  });
}

/**
 * Moves the subscription to another option now (documented proration: the unused share of the
 * paid period is credited against the new option's price, and a new period starts at the switch).
 * A declined charge leaves the subscription exactly as it was; a charge waiting for a 3DS
 * challenge answers `requires_action` and is followed up by `completePendingSwitch`.
 */
export async function switchSubscription(
  state: SubscriptionState,
  request: SwitchRequest,
  attemptId: string,
): Promise<SwitchAnswer> {
  // Checked again now that it is this switch's turn: a change that ran before it may have moved the state.
  assertCanSwitch(state, request, null);
  // Only a paid, current period earns credit: nothing was paid in a trial or while past due.
  const paidPeriod = state.status === 'active' && state.paidOrdersCount > 0;
  const { credit, amountDue } = switchCharge({
    oldPeriodPrice: paidPeriod ? state.price : 0,
    newPeriodPrice: request.price,
    periodStartMs: currentPeriodStartMs(state),
    periodEndMs: nextBillingAtMs(state),
    switchAtMs: request.atMs,
  });
  const chargeKey = `${state.subscriptionId}:switch:${attemptId}`;
  let result: SubscriptionChargeResult = {
    status: 'paid',
    paymentId: null,
    hardDecline: false,
    declineCode: null,
    redirectUrl: null,
    cardBrand: null,
  };
  if (amountDue > 0) {
    result = await chargeSubscription(chargeInput(state, amountDue, 'switch', chargeKey));
  }
  if (result.status === 'requires_action' && result.paymentId) {
    state.pendingSwitch = {
      ...request,
      paymentId: result.paymentId,
      cardBrand: result.cardBrand,
      amountDue,
      credit,
      chargeKey,
    };
  }
  if (result.status !== 'paid') {
    return {
      state: { ...state },
      status: result.status,
      orderId: null,
      paymentId: result.paymentId,
      amountCharged: 0,
      redirectUrl: result.redirectUrl,
      declineCode: result.declineCode,
    };
  }
  const orderId = await applySwitch(state, request, { chargeKey, amountDue, credit, paymentId: result.paymentId });
  return {
    state: { ...state },
    status: 'paid',
    orderId,
    paymentId: result.paymentId,
    amountCharged: amountDue,
    redirectUrl: null,
    declineCode: null,
  };
}

/** Waits for the challenged switch payment to end, then applies the switch only if it was paid. */
export async function completePendingSwitch(state: SubscriptionState): Promise<void> {
  const pending = state.pendingSwitch;
  if (!pending) return;
  const result = await awaitSubscriptionPayment({ paymentId: pending.paymentId, cardBrand: pending.cardBrand });
  state.pendingSwitch = null;
  if (result.status === 'paid') {
    await applySwitch(state, pending, {
      chargeKey: pending.chargeKey,
      amountDue: pending.amountDue,
      credit: pending.credit,
      paymentId: pending.paymentId,
    });
    return;
  }
  await saveState({
    state: { ...state },
    eventType: 's_subscription_updated',
    properties: {
      change: 'switch_abandoned',
      toOptionId: pending.optionId,
      paymentId: pending.paymentId,
      declineCode: result.declineCode,
    },
  });
}

interface SwitchCharge {
  /** Names this switch's order: a retried record finds it, another switch never does. */
  chargeKey: string;
  amountDue: number;
  credit: number;
  paymentId: string | null;
}

async function applySwitch(
  state: SubscriptionState,
  request: SwitchRequest,
  { chargeKey, amountDue, credit, paymentId }: SwitchCharge,
): Promise<string | null> {
  const fromOptionId = state.optionId;
  state.status = nextStatus(state.status, 'switched');
  Object.assign(state, {
    optionId: request.optionId,
    productId: request.productId,
    variantId: request.variantId,
    price: request.price,
    interval: request.interval,
    intervalCount: request.intervalCount,
    anchorAtMs: request.atMs,
    cycle: 1,
    dunning: null,
    paidOrdersCount: state.paidOrdersCount + 1,
  });
  const { orderId } = await recordSubscriptionCharge({
    state: { ...state },
    chargeKey,
    paymentId,
    amount: amountDue,
    reason: 'switch',
    eventType: 's_subscription_updated',
    properties: { change: 'switched', fromOptionId, toOptionId: request.optionId, credit, amountCharged: amountDue },
  });
  return orderId;
}
