import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { billingDateAt } from '../../../src/domain/billing';
import {
  customerCancelUpdate,
  subscriptionStateQuery,
  switchOptionUpdate,
  withdrawCancelUpdate,
} from '../../../workflows/subscriptions/messages';
import { createTimeSkippingEnv, executeUpdateOnce, step, untilQuiescent, withWorker } from '../../helpers/timeSkipping';
import {
  day,
  eventually,
  heldCharges,
  mockSubscriptionActivities,
  outcomeOf,
  startSubscription,
  subscriptionState,
  switchRequest,
} from './subscriptionHarness';

const iso = (ms: number) => new Date(ms).toISOString();
const hour = 3600_000;

/**
 * The portal's cancel and resume (customerCancel, withdrawCancel updates): the renewal timer
 * honours a cancel at period end (no charge after it), a withdrawn cancel bills the next period at
 * its date, a cancel now ends the workflow, and neither is queued behind a charge in flight.
 */
describe('subscription workflow: the customer cancels and resumes (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });
  const nowMs = async () => Number(await env.currentTimeMs());

  /** Starts the workflow for `state` and lets two days pass (a first charge due in that time is made). */
  async function startAndWait(taskQueue: string, state: ReturnType<typeof subscriptionState>) {
    const handle = await startSubscription(env, taskQueue, state);
    await step('first period', env.sleep(2 * day));
    await untilQuiescent(handle);
    return handle;
  }

  const eventTypes = (mocks: ReturnType<typeof mockSubscriptionActivities>) =>
    mocks.events.map((event) => event.eventType);

  it('cancel at period end: the period end is not charged and the workflow ends there; asking twice changes nothing', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + hour });
    const periodEnd = billingDateAt(state.anchorAtMs, 'month', 1, 1);
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await startAndWait(taskQueue, state);
      const first = await executeUpdateOnce(handle, customerCancelUpdate, [{ atPeriodEnd: true, atMs: await nowMs() }]);
      expect(first).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, cancelReasonId: null });
      await untilQuiescent(handle);
      const again = await executeUpdateOnce(handle, customerCancelUpdate, [{ atPeriodEnd: true, atMs: await nowMs() }]);
      expect(again).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
      const final = await step('run to the period end', handle.result());
      expect(final).toMatchObject({ status: 'canceled', canceledAtMs: periodEnd, cancelReasonId: null });
    });
    expect(mocks.charges.map((charge) => charge.input.reason)).toEqual(['first_charge']);
    expect(eventTypes(mocks)).toEqual([
      's_subscription_renewed',
      's_subscription_cancelled',
      's_subscription_cancelled',
    ]);
    expect(mocks.events[1]?.properties).toEqual({ atPeriodEnd: true, cancelAt: iso(periodEnd) });
    expect(mocks.events[2]).toMatchObject({
      state: { status: 'canceled', canceledAtMs: periodEnd },
      properties: { atPeriodEnd: true, reason: 'period_end' },
    });
  });

  it('a trial canceled at period end ends at the trial end without any charge', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const trialEnd = start + 7 * day;
    const state = subscriptionState({
      status: 'trialing',
      startedAtMs: start,
      anchorAtMs: trialEnd,
      trialEndsAtMs: trialEnd,
    });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await startAndWait(taskQueue, state);
      await executeUpdateOnce(handle, customerCancelUpdate, [{ atPeriodEnd: true, atMs: await nowMs() }]);
      expect(await step('run to the trial end', handle.result())).toMatchObject({
        status: 'canceled',
        canceledAtMs: trialEnd,
      });
    });
    expect(mocks.charges).toHaveLength(0);
  });

  it('resume withdraws the cancel: the next period is charged at its date; a second resume is refused', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + hour });
    const periodEnd = billingDateAt(state.anchorAtMs, 'month', 1, 1);
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await startAndWait(taskQueue, state);
      expect(await outcomeOf(executeUpdateOnce(handle, withdrawCancelUpdate, [{ atMs: await nowMs() }]))).toBe(
        'SubscriptionNoScheduledCancelError',
      );
      await executeUpdateOnce(handle, customerCancelUpdate, [{ atPeriodEnd: true, atMs: await nowMs() }]);
      await untilQuiescent(handle);
      const resumed = await executeUpdateOnce(handle, withdrawCancelUpdate, [{ atMs: await nowMs() }]);
      expect(resumed).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, cancelReasonId: null });
      await untilQuiescent(handle);
      expect(await outcomeOf(executeUpdateOnce(handle, withdrawCancelUpdate, [{ atMs: await nowMs() }]))).toBe(
        'SubscriptionNoScheduledCancelError',
      );

      await step('past the period end', env.sleep(periodEnd - (await nowMs()) + day));
      expect(await handle.query(subscriptionStateQuery)).toMatchObject({
        status: 'active',
        paidOrdersCount: 2,
        cycle: 2,
      });
      await handle.terminate('test over');
    });
    expect(mocks.charges.map((charge) => [charge.input.reason, charge.input.chargeKey])).toEqual([
      ['first_charge', `${state.subscriptionId}:c0:a0`],
      ['renewal', `${state.subscriptionId}:c1:a0`],
    ]);
    expect(mocks.charges[1]?.atMs).toBeGreaterThanOrEqual(periodEnd);
    expect(eventTypes(mocks)).toEqual([
      's_subscription_renewed',
      's_subscription_cancelled',
      's_subscription_resumed',
      's_subscription_renewed',
    ]);
    expect(mocks.events[2]?.properties).toEqual({
      automatic: false,
      cancelWithdrawn: true,
      nextBillingAt: iso(periodEnd),
    });
  });

  it('cancel now ends the workflow at once: completed, one event, nothing charged after', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + hour });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await startAndWait(taskQueue, state);
      const cancelAt = await nowMs();
      const canceled = await executeUpdateOnce(handle, customerCancelUpdate, [{ atPeriodEnd: false, atMs: cancelAt }]);
      expect(canceled).toMatchObject({ status: 'canceled', canceledAtMs: cancelAt, cancelAtPeriodEnd: false });
      expect(await step('result', handle.result())).toMatchObject({ status: 'canceled' });
      expect((await handle.describe()).status.name).toBe('COMPLETED');
      await step('a period later', env.sleep(40 * day));
    });
    expect(mocks.charges).toHaveLength(1);
    expect(eventTypes(mocks)).toEqual(['s_subscription_renewed', 's_subscription_cancelled']);
    expect(mocks.events[1]?.properties).toEqual({ atPeriodEnd: false, reason: 'requested' });
  });

  /** What cancel and resume answer while something is charging. */
  const refusalsWhileCharging = async (handle: WorkflowHandle) =>
    Promise.all([
      outcomeOf(executeUpdateOnce(handle, customerCancelUpdate, [{ atPeriodEnd: false, atMs: await nowMs() }])),
      outcomeOf(executeUpdateOnce(handle, customerCancelUpdate, [{ atPeriodEnd: true, atMs: await nowMs() }])),
      outcomeOf(executeUpdateOnce(handle, withdrawCancelUpdate, [{ atMs: await nowMs() }])),
    ]);

  it('while a renewal is charging, cancel and resume are refused as busy (never queued); after it, cancel goes through', async () => {
    const { mocks, held, started, activities } = heldCharges(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start });
    await withWorker(env, activities, async (taskQueue) => {
      try {
        const handle = await startSubscription(env, taskQueue, state);
        await eventually(() => started.length === 1);
        expect(await refusalsWhileCharging(handle)).toEqual([
          'SubscriptionBusyError',
          'SubscriptionBusyError',
          'SubscriptionBusyError',
        ]);
        held.open();
        await eventually(async () => (await handle.query(subscriptionStateQuery)).paidOrdersCount === 1);
        await untilQuiescent(handle);
        const canceled = await executeUpdateOnce(handle, customerCancelUpdate, [
          { atPeriodEnd: true, atMs: await nowMs() },
        ]);
        expect(canceled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
        await handle.terminate('test over');
      } finally {
        held.open();
      }
    });
    expect(eventTypes(mocks)).toEqual(['s_subscription_renewed', 's_subscription_cancelled']);
  });

  it('while a switch is charging, cancel and resume are refused as busy', async () => {
    const { mocks, held, started, activities } = heldCharges(env);
    const start = await nowMs();
    const state = subscriptionState({
      startedAtMs: start - 10 * day,
      anchorAtMs: start - 10 * day,
      cycle: 1,
      paidOrdersCount: 1,
    });
    await withWorker(env, activities, async (taskQueue) => {
      try {
        const handle = await startSubscription(env, taskQueue, state);
        const switched = handle.executeUpdate(switchOptionUpdate, {
          args: [switchRequest('price_pro', start)],
        });
        await eventually(() => started.length === 1);
        expect(await refusalsWhileCharging(handle)).toEqual([
          'SubscriptionBusyError',
          'SubscriptionBusyError',
          'SubscriptionBusyError',
        ]);
        held.open();
        expect(await switched).toMatchObject({ status: 'paid' });
        await handle.terminate('test over');
      } finally {
        held.open();
      }
    });
    expect(started).toEqual(['switch']);
    expect(mocks.events.map((event) => event.properties.change ?? event.eventType)).toEqual(['switched']);
  });
});
