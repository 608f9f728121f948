import { firstCycleAtOrAfter, nextStatus, type SubscriptionEvent } from '../../src/domain/billing';
import { nextBillingAtMs, type SubscriptionState } from '../../src/domain/billingState';
import { WorkflowLock } from '../shared/lock';
import { assertCan, type ChargeInFlight } from './guards';
import type { CancelRequest } from './messages';
import { saveState } from './save';

/**
 * One run of a subscription workflow: its state, and the changes (billing or a customer's update)
 * applied one at a time on it. The main loop sleeps until `wake` says a change ran.
 */
export class SubscriptionRun {
  readonly lock = new WorkflowLock();
  wake = false;
  /** The option a switch moves to, from the moment it is accepted until it ends. */
  switchingTo: string | null = null;
  renewalCharging = false;
  /** The portal's on-session payment of a failed renewal, from acceptance until it answers. */
  payingDue = false;

  constructor(readonly state: SubscriptionState) {}

  readonly chargeInFlight = (): ChargeInFlight =>
    this.switchingTo !== null
      ? { kind: 'switch', optionId: this.switchingTo }
      : this.renewalCharging || this.payingDue
        ? { kind: 'renewal' }
        : null;

  /** Runs one change at a time (billing or a customer's update) and wakes the main loop after. */
  readonly exclusive = async <T>(change: () => Promise<T>): Promise<T> => {
    try {
      return await this.lock.run(change);
    } finally {
      this.wake = true;
    }
  };

  assertCan(event: SubscriptionEvent): void {
    assertCan(this.state, event);
  }

  async persist(eventType: string | null, properties: Record<string, unknown> = {}): Promise<void> {
    await saveState({ state: { ...this.state }, eventType, properties });
  }

  move(event: SubscriptionEvent): void {
    this.state.status = nextStatus(this.state.status, event);
  }

  /** Cancels now, or marks the cancel for the end of the period (the loop ends it then). */
  async cancel(request: CancelRequest): Promise<SubscriptionState> {
    const state = this.state;
    this.assertCan('canceled');
    const reasonId = request.reasonId ?? state.cancelReasonId;
    const atPeriodEnd = request.atPeriodEnd && state.status !== 'past_due';
    // Asked already (a retry, a double-click): nothing changes, so nothing is written or sent twice.
    if (atPeriodEnd && state.cancelAtPeriodEnd && reasonId === state.cancelReasonId) return state;
    state.cancelReasonId = reasonId;
    if (atPeriodEnd) {
      state.cancelAtPeriodEnd = true;
      await this.persist('s_subscription_cancelled', {
        atPeriodEnd: true,
        cancelAt: new Date(nextBillingAtMs(state)).toISOString(),
      });
    } else {
      this.move('canceled');
      state.canceledAtMs = request.atMs;
      state.dunning = null;
      await this.persist('s_subscription_cancelled', { atPeriodEnd: false, reason: request.reasonId ?? 'requested' });
    }
    return state;
  }

  async resumeAt(atMs: number, automatic: boolean): Promise<void> {
    const state = this.state;
    this.move('resumed');
    state.pausedUntilMs = null;
    // Dates that fell inside the pause are not billed; the anchor day is kept.
    state.cycle = firstCycleAtOrAfter(state.anchorAtMs, state.interval, state.intervalCount, atMs, state.cycle);
    await this.persist('s_subscription_resumed', { automatic });
  }
}
