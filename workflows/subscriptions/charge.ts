import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { recordStep } from '../shared/activityOptions';
import { nextStatus } from '../../src/domain/billing';
import { dunningRetryAt } from '../../src/domain/billingRetry';
import {
  nextBillingAtMs,
  type SubscriptionChargeInput,
  type SubscriptionChargeReason,
  type SubscriptionChargeResult,
  type SubscriptionState,
} from '../../src/domain/billingState';
import { chargeAsChildPayment } from './payment';
import { saveState } from './save';

const { recordSubscriptionCharge, reserveCardReattempt } = proxyActivities<Activities>(recordStep);

export function chargeInput(
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
    // Renewals and dunning retries run with no customer present: merchant-initiated, never stepped up.
    initiatedBy: reason === 'switch' || reason === 'on_session_recovery' ? 'customer' : 'merchant',
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
