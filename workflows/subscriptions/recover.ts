import { ApplicationFailure, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { paymentWait, recordStep } from '../shared/activityOptions';
import { nextStatus } from '../../src/domain/billing';
import { nextBillingAtMs, type SubscriptionChargeResult, type SubscriptionState } from '../../src/domain/billingState';
import { chargeInput } from './charge';
import { assertCan, type ChargeInFlight } from './guards';
import { payDueOnSessionUpdate, subscriptionFailureTypes as failure, type PayDueAnswer } from './messages';

// Started from an activity, as a switch is, so the portal gets an early requires_action; a decline
// is a result, never an exception.
const { chargeSubscription, awaitSubscriptionPayment } = proxyActivities<Activities>(paymentWait);
const { recordSubscriptionCharge } = proxyActivities<Activities>(recordStep);

/**
 * A failed renewal can be paid on-session only while the subscription is past due and nothing else
 * moves money: a second request while one runs (or waits for its 3DS step) is refused, so ten
 * requests at once make one charge.
 */
export function assertCanPayDue(state: SubscriptionState, inFlight: ChargeInFlight): void {
  if (inFlight)
    throw ApplicationFailure.nonRetryable(
      `a ${inFlight.kind} charge of this subscription is in progress; try again when it ends`,
      failure.busy,
    );
  if (state.pendingRecovery)
    throw ApplicationFailure.nonRetryable('an on-session payment of this renewal is in progress', failure.busy);
  if (state.status !== 'past_due' || !state.dunning)
    throw ApplicationFailure.nonRetryable(
      `nothing is due: the subscription is ${state.status}, not past due`,
      failure.nothingDue,
    );
  assertCan(state, 'dunning_recovered');
}

/**
 * The portal's update. As a switch, it is marked in flight synchronously once accepted, so a
 * concurrent second request is refused by its validator instead of queued to charge again.
 */
export function registerPayDueOnSession(
  state: SubscriptionState,
  chargeInFlight: () => ChargeInFlight,
  exclusive: <T>(change: () => Promise<T>) => Promise<T>,
  markPaying: (paying: boolean) => void,
): void {
  setHandler(
    payDueOnSessionUpdate,
    async (_request) => {
      assertCanPayDue(state, chargeInFlight());
      markPaying(true);
      try {
        return await exclusive(() => payDueOnSession(state, uuid4()));
      } finally {
        markPaying(false);
      }
    },
    { validator: (_request) => assertCanPayDue(state, chargeInFlight()) },
  );
}

/**
 * The customer pays the failed renewal's amount now with the subscription's card, as a
 * customer-initiated payment (which may step up). Paid: the renewal is recovered as a dunning
 * retry would recover it (the cycle is paid, dunning ends). Declined: nothing changes and dunning
 * goes on. Waiting for 3DS: answered at once, settled by `completePendingRecovery`.
 */
export async function payDueOnSession(state: SubscriptionState, attemptId: string): Promise<PayDueAnswer> {
  assertCanPayDue(state, null);
  const chargeKey = `${state.subscriptionId}:c${state.cycle}:onsession:${attemptId}`;
  const amount = state.price;
  const result = await chargeSubscription(chargeInput(state, amount, 'on_session_recovery', chargeKey));
  if (result.status === 'requires_action' && result.paymentId)
    state.pendingRecovery = { paymentId: result.paymentId, chargeKey, cardBrand: result.cardBrand };
  const orderId = result.status === 'paid' ? await recover(state, chargeKey, amount, result) : null;
  return {
    state: { ...state },
    status: result.status,
    orderId,
    paymentId: result.paymentId,
    amountCharged: result.status === 'paid' ? amount : 0,
    redirectUrl: result.redirectUrl,
    declineCode: result.declineCode,
  };
}

/** Waits for an on-session payment that needed 3DS to end; recovers the renewal only if it was paid. */
export async function completePendingRecovery(state: SubscriptionState): Promise<void> {
  const pending = state.pendingRecovery;
  if (!pending) return;
  const result = await awaitSubscriptionPayment({ paymentId: pending.paymentId, cardBrand: pending.cardBrand });
  state.pendingRecovery = null;
  if (result.status === 'paid' && state.status === 'past_due')
    await recover(state, pending.chargeKey, state.price, result);
}

async function recover(
  state: SubscriptionState,
  chargeKey: string,
  amount: number,
  result: SubscriptionChargeResult,
): Promise<string | null> {
  state.status = nextStatus(state.status, 'dunning_recovered');
  const paidPeriodStart = nextBillingAtMs(state);
  state.dunning = null;
  state.cycle += 1;
  state.paidOrdersCount += 1;
  const { orderId } = await recordSubscriptionCharge({
    state: { ...state },
    chargeKey,
    paymentId: result.paymentId,
    amount,
    reason: 'on_session_recovery',
    eventType: 's_subscription_renewed',
    properties: {
      transition: 'dunning_recovered',
      onSession: true,
      periodStart: new Date(paidPeriodStart).toISOString(),
      nextBillingAt: new Date(nextBillingAtMs(state)).toISOString(),
    },
  });
  return orderId;
}
