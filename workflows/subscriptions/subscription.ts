import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyLocalActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { localRead } from '../shared/activityOptions';
import { dunningRetryAt } from '../../src/domain/billingRetry';
import { nextBillingAtMs, type SubscriptionState } from '../../src/domain/billingState';
import { chargeRenewal } from './charge';
import { registerChangeHandlers } from './changes';
import { completePendingRecovery } from './recover';
import { SubscriptionRun } from './run';
import { completePendingSwitch } from './switch';

const { readClock } = proxyLocalActivities<Activities>(localRead);

export interface SubscriptionWorkflowInput {
  state: SubscriptionState;
  /** Renewal charges per workflow run before continueAsNew keeps the history short. */
  chargesPerRun?: number;
}

const defaultChargesPerRun = 24;

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
  const run = new SubscriptionRun({ ...input.state });
  const { state } = run;
  const chargesPerRun = input.chargesPerRun ?? defaultChargesPerRun;
  registerChangeHandlers(run);

  while (state.status !== 'canceled') {
    if (state.chargesThisRun >= chargesPerRun || workflowInfo().continueAsNewSuggested) {
      await condition(() => run.lock.idle && allHandlersFinished());
      await continueAsNew<typeof subscriptionWorkflow>({
        state: { ...state, chargesThisRun: 0, run: state.run + 1 },
        chargesPerRun,
      });
    }
    if (state.pendingSwitch) {
      await run.exclusive(() => completePendingSwitch(state));
      continue;
    }
    // Before any dunning retry: the customer's own payment of the renewal settles it first.
    if (state.pendingRecovery) {
      await run.exclusive(() => completePendingRecovery(state));
      continue;
    }
    const now = await readClock();
    if (state.status === 'paused') {
      await sleepOutPause(run, now);
      continue;
    }
    const dueAt = dueAtOf(state);
    if (dueAt !== null && dueAt > now) {
      await sleepUntilWoken(run, dueAt - now);
      continue;
    }
    await run.exclusive(() => billDue(run, now));
  }
  await condition(allHandlersFinished);
  return state;
}

// The two waits below are plain functions that hand back the very promise the loop awaits: an
// async wrapper would add microtask turns to the loop, and the loop races update handlers for the
// lock, so it must take the same turns as in the recorded histories.

/** Waits for a change, at most `ms` (a durable timer), or without end when `ms` is null. */
function sleepUntilWoken(run: SubscriptionRun, ms: number | null): Promise<unknown> {
  run.wake = false;
  return ms === null ? condition(() => run.wake) : condition(() => run.wake, ms);
}

/** A paused subscription sleeps until its pause ends (or a change), then resumes itself. */
function sleepOutPause(run: SubscriptionRun, now: number): Promise<unknown> {
  const until = run.state.pausedUntilMs;
  if (until === null || until > now) return sleepUntilWoken(run, until === null ? null : until - now);
  return run.exclusive(async () => {
    if (run.state.status === 'paused') await run.resumeAt(now, true);
  });
}

/** The billing step, run exclusively: ends a subscription cancelled at period end, or charges the renewal. */
async function billDue(run: SubscriptionRun, now: number): Promise<void> {
  const { state } = run;
  if (state.status === 'canceled' || state.status === 'paused') return;
  // A change that ran while this waited for its turn (a switch re-anchors) may have moved the date.
  const stillDue = dueAtOf(state);
  if (stillDue !== null && stillDue > now) return;
  if (!state.dunning && state.cancelAtPeriodEnd) {
    run.move('canceled');
    state.canceledAtMs = nextBillingAtMs(state);
    await run.persist('s_subscription_cancelled', { atPeriodEnd: true, reason: state.cancelReasonId ?? 'period_end' });
    return;
  }
  run.renewalCharging = true;
  try {
    await chargeRenewal(state, now);
  } finally {
    run.renewalCharging = false;
  }
}
