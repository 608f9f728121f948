import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { canTransition, firstCycleAtOrAfter, nextStatus, type SubscriptionEvent } from '../src/domain/billing';
import { dunningRetryAt } from '../src/domain/billingRetry';
import { nextBillingAtMs, type SubscriptionState } from '../src/domain/billingState';
import {
  type CancelRequest,
  type ResumeRequest,
  cancelSubscriptionUpdate,
  pauseSubscriptionUpdate,
  paymentMethodChangedSignal,
  resumeSubscriptionUpdate,
  skipNextDateUpdate,
  subscriptionStateQuery,
  switchOptionUpdate,
} from './subscriptionApi';
import { chargeRenewal, completePendingSwitch, switchSubscription } from './subscriptionCharge';

const { readClock } = proxyLocalActivities<Activities>({ startToCloseTimeout: '10 seconds' });
const { saveSubscriptionState } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20 },
});

export interface SubscriptionWorkflowInput {
  state: SubscriptionState;
  /** Renewal charges per workflow run before continueAsNew keeps the history short. */
  chargesPerRun?: number;
}

const defaultChargesPerRun = 24;

/**
 * One workflow per subscription (workflow id = subscription id). Sleeps until the next billing
 * date (or dunning retry), charges, records, moves the date; customers' and merchants' changes
 * arrive as updates that are applied one at a time with the billing step.
 */
export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<SubscriptionState> {
  const state: SubscriptionState = { ...input.state };
  const chargesPerRun = input.chargesPerRun ?? defaultChargesPerRun;
  let busy = false;
  let wake = false;

  /** Runs one change at a time (billing or a customer's update) and wakes the main loop after. */
  async function exclusive<T>(change: () => Promise<T>): Promise<T> {
    await condition(() => !busy);
    busy = true;
    try {
      return await change();
    } finally {
      busy = false;
      wake = true;
    }
  }

  function assertCan(event: SubscriptionEvent): void {
    if (state.pendingSwitch) {
      throw ApplicationFailure.nonRetryable('a switch is waiting for its 3-D Secure challenge; try again when it ends', 'SubscriptionBusyError');
    }
    if (!canTransition(state.status, event)) {
      throw ApplicationFailure.nonRetryable(
        `a ${state.status} subscription cannot be ${event.replace(/_/g, ' ')}`,
        'SubscriptionTransitionError',
      );
    }
  }

  async function persist(eventType: string | null, properties: Record<string, unknown> = {}): Promise<void> {
    await saveSubscriptionState({ state: { ...state }, eventType, properties });
  }

  function move(event: SubscriptionEvent): void {
    state.status = nextStatus(state.status, event);
  }

  setHandler(subscriptionStateQuery, () => state);

  setHandler(
    cancelSubscriptionUpdate,
    (request) =>
      exclusive(async () => {
        assertCan('canceled');
        state.cancelReasonId = request.reasonId ?? state.cancelReasonId;
        if (request.atPeriodEnd && state.status !== 'past_due') {
          state.cancelAtPeriodEnd = true;
          await persist('s_subscription_cancelled', { atPeriodEnd: true, cancelAt: new Date(nextBillingAtMs(state)).toISOString() });
        } else {
          move('canceled');
          state.canceledAtMs = request.atMs;
          state.dunning = null;
          await persist('s_subscription_cancelled', { atPeriodEnd: false, reason: request.reasonId ?? 'requested' });
        }
        return state;
      }),
    { validator: (_request: CancelRequest) => assertCan('canceled') },
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
        if (!(request.untilMs > request.atMs)) throw ApplicationFailure.nonRetryable('pause end must be in the future', 'InvalidRequest');
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

  function assertCanSkip(): void {
    if (state.pendingSwitch) assertCan('switched');
    if (state.status !== 'active' && state.status !== 'trialing') {
      throw ApplicationFailure.nonRetryable(`a ${state.status} subscription cannot skip a date`, 'SubscriptionTransitionError');
    }
  }

  setHandler(
    skipNextDateUpdate,
    () =>
      exclusive(async () => {
        assertCanSkip();
        const skipped = nextBillingAtMs(state);
        state.skippedDatesMs = [...state.skippedDatesMs, skipped];
        state.cycle += 1;
        await persist('s_subscription_updated', { change: 'date_skipped',  skippedDate: new Date(skipped).toISOString() });
        return state;
      }),
    { validator: (_request: { atMs: number }) => assertCanSkip() },
  );

  setHandler(
    switchOptionUpdate,
    (request) => exclusive(() => switchSubscription(state, request, uuid4(), assertCan)),
    {
      validator: (request) => {
        assertCan('switched');
        if (request.currency !== state.currency) {
          throw ApplicationFailure.nonRetryable('the new option must bill in the subscription currency', 'InvalidRequest');
        }
      },
    },
  );

  setHandler(paymentMethodChangedSignal, ({ paymentMethodId }) =>
    exclusive(async () => {
      if (state.paymentMethodId === paymentMethodId) return;
      state.paymentMethodId = paymentMethodId;
      await persist('s_subscription_updated', { change: 'payment_method', paymentMethodId });
    }),
  );

  while (state.status !== 'canceled') {
    if (state.chargesThisRun >= chargesPerRun || workflowInfo().continueAsNewSuggested) {
      await condition(() => !busy && allHandlersFinished());
      await continueAsNew<typeof subscriptionWorkflow>({
        state: { ...state, chargesThisRun: 0, run: state.run + 1 },
        chargesPerRun,
      });
    }
    if (state.pendingSwitch) {
      await exclusive(() => completePendingSwitch(state));
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
    const dueAt = state.dunning ? dunningRetryAt(state.dunning.failedAtMs, state.dunning.retryIndex) : nextBillingAtMs(state);
    if (dueAt !== null && dueAt > now) {
      wake = false;
      await condition(() => wake, dueAt - now);
      continue;
    }
    await exclusive(async () => {
      if (state.status === 'canceled' || state.status === 'paused') return;
      if (!state.dunning && state.cancelAtPeriodEnd) {
        move('canceled');
        state.canceledAtMs = nextBillingAtMs(state);
        await persist('s_subscription_cancelled', { atPeriodEnd: true, reason: state.cancelReasonId ?? 'period_end' });
        return;
      }
      await chargeRenewal(state, now);
    });
  }
  await condition(allHandlersFinished);
  return state;
}
