import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { paymentWait, recordStep } from '../shared/activityOptions';
import { nextStatus, switchCharge } from '../../src/domain/billing';
import {
  currentPeriodStartMs,
  nextBillingAtMs,
  type SubscriptionChargeResult,
  type SubscriptionState,
} from '../../src/domain/billingState';
import { chargeInput } from './charge';
import { assertCanSwitch } from './guards';
import type { SwitchAnswer, SwitchRequest } from './messages';
import { saveState } from './save';

// The switch's payment is started from an activity (activities/subscriptions/charge.ts) so the
// portal gets an early requires_action, then it waits for the end, which may include a 15-minute
// 3DS challenge window. A decline is a result, never an exception.
const { chargeSubscription, awaitSubscriptionPayment } = proxyActivities<Activities>(paymentWait);
const { recordSubscriptionCharge } = proxyActivities<Activities>(recordStep);

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
