import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  patched,
  proxyLocalActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { localRead } from '../shared/activityOptions';
import { firstCycleAtOrAfter, nextStatus, type SubscriptionEvent } from '../../src/domain/billing';
import { dunningRetryAt } from '../../src/domain/billingRetry';
import { nextBillingAtMs, type SubscriptionState } from '../../src/domain/billingState';
import { WorkflowLock } from '../shared/lock';
import {
  type CancelRequest,
  type CustomerCancelRequest,
  type CustomerChangeRequest,
  type ResumeRequest,
  type SkipRequest,
  cancelSubscriptionUpdate,
  customerCancelUpdate,
  pauseSubscriptionUpdate,
  paymentMethodChangedSignal,
  resumeSubscriptionUpdate,
  skipNextDateUpdate,
  subscriptionStateQuery,
  switchOptionUpdate,
  withdrawCancelUpdate,
} from './messages';
import { chargeRenewal } from './charge';
import { completePendingSwitch, switchSubscription } from './switch';
import { completePendingRecovery, registerPayDueOnSession } from './recover';
import { saveState } from './save';
import {
  assertCan as assertCanIn,
  assertCanSkip,
  assertCanSwitch,
  assertCanWithdrawCancel,
  assertCustomerCanCancel,
  type ChargeInFlight,
} from './guards';

const { readClock, readSubscriptionCard } = proxyLocalActivities<Activities>(localRead);

export interface SubscriptionWorkflowInput {
  state: SubscriptionState;
  /** Renewal charges per workflow run before continueAsNew keeps the history short. */
  chargesPerRun?: number;
}

const defaultChargesPerRun = 24;

/** Histories from before it took the card from the signal; newer runs read it from the row. */
const cardReadFromRowPatch = 'subscription-card-read-from-row';

/** When the next charge is due: the dunning retry while past due, else the next billing date. */
function dueAtOf(state: SubscriptionState): number | null {
  return state.dunning ? dunningRetryAt(state.dunning.failedAtMs, state.dunning.retryIndex) : nextBillingAtMs(state);
}

/**
 * One workflow per subscription (workflow id = subscription id). Sleeps until the next billing
 * date (or dunning retry), charges, records, moves the date; customers' and merchants' changes
 * arrive as updates that are applied one at a time with the billing step.
 */
export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<SubscriptionState> {
  const state: SubscriptionState = { ...input.state };
  const chargesPerRun = input.chargesPerRun ?? defaultChargesPerRun;
  const lock = new WorkflowLock();
  let wake = false;
  /** The option a switch moves to, from the moment it is accepted until it ends. */
  let switchingTo: string | null = null;
  let renewalCharging = false;
  /** The portal's on-session payment of a failed renewal, from acceptance until it answers. */
  let payingDue = false;
  const chargeInFlight = (): ChargeInFlight =>
    switchingTo !== null
      ? { kind: 'switch', optionId: switchingTo }
      : renewalCharging || payingDue
        ? { kind: 'renewal' }
        : null;

  /** Runs one change at a time (billing or a customer's update) and wakes the main loop after. */
  async function exclusive<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await lock.run(change);
    } finally {
      wake = true;
    }
  }

  const assertCan = (event: SubscriptionEvent) => assertCanIn(state, event);

  async function persist(eventType: string | null, properties: Record<string, unknown> = {}): Promise<void> {
    await saveState({ state: { ...state }, eventType, properties });
  }

  function move(event: SubscriptionEvent): void {
    state.status = nextStatus(state.status, event);
  }

  setHandler(subscriptionStateQuery, () => state);

  /** Cancels now, or marks the cancel for the end of the period (the loop ends it then). */
  async function cancel(request: CancelRequest): Promise<SubscriptionState> {
    assertCan('canceled');
    const reasonId = request.reasonId ?? state.cancelReasonId;
    const atPeriodEnd = request.atPeriodEnd && state.status !== 'past_due';
    // Asked already (a retry, a double-click): nothing changes, so nothing is written or sent twice.
    if (atPeriodEnd && state.cancelAtPeriodEnd && reasonId === state.cancelReasonId) return state;
    state.cancelReasonId = reasonId;
    if (atPeriodEnd) {
      state.cancelAtPeriodEnd = true;
      await persist('s_subscription_cancelled', {
        atPeriodEnd: true,
        cancelAt: new Date(nextBillingAtMs(state)).toISOString(),
      });
    } else {
      move('canceled');
      state.canceledAtMs = request.atMs;
      state.dunning = null;
      await persist('s_subscription_cancelled', { atPeriodEnd: false, reason: request.reasonId ?? 'requested' });
    }
    return state;
  }

  setHandler(cancelSubscriptionUpdate, (request) => exclusive(() => cancel(request)), {
    validator: (_request: CancelRequest) => assertCan('canceled'),
  });

  // The portal's own cancel and resume: refused while a charge is in flight (not queued behind it).
  setHandler(customerCancelUpdate, (request) => exclusive(() => cancel({ ...request, reasonId: null })), {
    validator: (_request: CustomerCancelRequest) => assertCustomerCanCancel(state, chargeInFlight()),
  });

  setHandler(
    withdrawCancelUpdate,
    (_request) =>
      exclusive(async () => {
        assertCanWithdrawCancel(state, null);
        state.cancelAtPeriodEnd = false;
        state.cancelReasonId = null;
        await persist('s_subscription_resumed', {
          automatic: false,
          cancelWithdrawn: true,
          nextBillingAt: new Date(nextBillingAtMs(state)).toISOString(),
        });
        return state;
      }),
    { validator: (_request: CustomerChangeRequest) => assertCanWithdrawCancel(state, chargeInFlight()) },
  );

  setHandler(
    pauseSubscriptionUpdate,
    (request) =>
      exclusive(async () => {
        assertCan('paused');
        move('paused');
        state.pausedUntilMs = request.untilMs;
        await persist('s_subscription_paused', { pausedUntil: new Date(request.untilMs).toISOString() });
        return state;
      }),
    {
      validator: (request) => {
        assertCan('paused');
        if (!(request.untilMs > request.atMs))
          throw ApplicationFailure.nonRetryable('pause end must be in the future', 'InvalidRequest');
      },
    },
  );

  async function resumeAt(atMs: number, automatic: boolean): Promise<void> {
    move('resumed');
    state.pausedUntilMs = null;
    // Dates that fell inside the pause are not billed; the anchor day is kept.
    state.cycle = firstCycleAtOrAfter(state.anchorAtMs, state.interval, state.intervalCount, atMs, state.cycle);
    await persist('s_subscription_resumed', { automatic });
  }

  setHandler(
    resumeSubscriptionUpdate,
    (request) =>
      exclusive(async () => {
        assertCan('resumed');
        await resumeAt(request.atMs, false);
        return state;
      }),
    { validator: (_request: ResumeRequest) => assertCan('resumed') },
  );

  setHandler(
    skipNextDateUpdate,
    (request) =>
      exclusive(async () => {
        assertCanSkip(state, request);
        const skipped = nextBillingAtMs(state);
        state.skippedDatesMs = [...state.skippedDatesMs, skipped];
        state.cycle += 1;
        await persist('s_subscription_updated', {
          change: 'date_skipped',
          skippedDate: new Date(skipped).toISOString(),
        });
        return state;
      }),
    { validator: (request: SkipRequest) => assertCanSkip(state, request) },
  );

  // The handler marks the switch in flight synchronously, right after its validator accepted it and
  // before the next update's validator runs, so a second switch is refused, never queued to charge.
  setHandler(
    switchOptionUpdate,
    async (request) => {
      assertCanSwitch(state, request, chargeInFlight());
      switchingTo = request.optionId;
      try {
        return await exclusive(() => switchSubscription(state, request, uuid4()));
      } finally {
        switchingTo = null;
      }
    },
    { validator: (request) => assertCanSwitch(state, request, chargeInFlight()) },
  );

  registerPayDueOnSession(state, chargeInFlight, exclusive, (paying) => (payingDue = paying));

  // The row holds the card (the portal writes it, then signals): read it there, so that of two
  // changes signalled out of order the workflow ends on the one committed last, as the row does.
  setHandler(paymentMethodChangedSignal, ({ paymentMethodId: signalled }) =>
    exclusive(async () => {
      const paymentMethodId = patched(cardReadFromRowPatch)
        ? ((await readSubscriptionCard(state.subscriptionId)) ?? signalled)
        : signalled;
      if (state.paymentMethodId === paymentMethodId) return;
      state.paymentMethodId = paymentMethodId;
      await persist('s_subscription_updated', { change: 'payment_method', paymentMethodId });
    }),
  );

  while (state.status !== 'canceled') {
    if (state.chargesThisRun >= chargesPerRun || workflowInfo().continueAsNewSuggested) {
      await condition(() => lock.idle && allHandlersFinished());
      await continueAsNew<typeof subscriptionWorkflow>({
        state: { ...state, chargesThisRun: 0, run: state.run + 1 },
        chargesPerRun,
      });
    }
    if (state.pendingSwitch) {
      await exclusive(() => completePendingSwitch(state));
      continue;
    }
    // Before any dunning retry: the customer's own payment of the renewal settles it first.
    if (state.pendingRecovery) {
      await exclusive(() => completePendingRecovery(state));
      continue;
    }
    const now = await readClock();
    if (state.status === 'paused') {
      const until = state.pausedUntilMs;
      if (until === null || until > now) {
        wake = false;
        if (until === null) await condition(() => wake);
        else await condition(() => wake, until - now);
        continue;
      }
      await exclusive(async () => {
        if (state.status === 'paused') await resumeAt(now, true);
      });
      continue;
    }
    const dueAt = dueAtOf(state);
    if (dueAt !== null && dueAt > now) {
      wake = false;
      await condition(() => wake, dueAt - now);
      continue;
    }
    await exclusive(async () => {
      if (state.status === 'canceled' || state.status === 'paused') return;
      // A change that ran while this waited for its turn (a switch re-anchors) may have moved the date.
      const stillDue = dueAtOf(state);
      if (stillDue !== null && stillDue > now) return;
      if (!state.dunning && state.cancelAtPeriodEnd) {
        move('canceled');
        state.canceledAtMs = nextBillingAtMs(state);
        await persist('s_subscription_cancelled', { atPeriodEnd: true, reason: state.cancelReasonId ?? 'period_end' });
        return;
      }
      renewalCharging = true;
      try {
        await chargeRenewal(state, now);
      } finally {
        renewalCharging = false;
      }
    });
  }
  await condition(allHandlersFinished);
  return state;
}
