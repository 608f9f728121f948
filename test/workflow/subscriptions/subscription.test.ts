import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { billingDateAt } from '../../../src/domain/billing';
import { subscriptionWorkflow } from '../../../workflows/subscriptions/subscription';
import {
  pauseSubscriptionUpdate,
  resumeSubscriptionUpdate,
  subscriptionStateQuery,
} from '../../../workflows/subscriptions/messages';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { day, mockSubscriptionActivities, subscriptionState } from './subscriptionHarness';

const iso = (ms: number) => new Date(ms).toISOString();

describe('subscription workflow (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  const nowMs = async () => Number(await env.currentTimeMs());
  const sleepUntil = async (targetMs: number) => env.sleep(Math.max(targetMs - (await nowMs()), 1));

  it('renews monthly 12 times with anchored month-end dates (Jan 31 → Feb 28 → Mar 31 …)', async () => {
    const mocks = mockSubscriptionActivities(env);
    const anchor = Date.parse('2027-01-31T10:00:00.000Z');
    expect(await nowMs()).toBeLessThan(anchor);
    const state = subscriptionState({ startedAtMs: await nowMs(), anchorAtMs: anchor });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await sleepUntil(Date.parse('2027-12-31T12:00:00.000Z'));
      const after = await handle.query(subscriptionStateQuery);
      expect(after.paidOrdersCount).toBe(12);
      expect(after.status).toBe('active');
      await handle.terminate('test over');
    });
    expect(mocks.orders).toHaveLength(12);
    expect(mocks.orders.map((order) => order.properties.periodStart)).toEqual([
      '2027-01-31T10:00:00.000Z',
      '2027-02-28T10:00:00.000Z',
      '2027-03-31T10:00:00.000Z',
      '2027-04-30T10:00:00.000Z',
      '2027-05-31T10:00:00.000Z',
      '2027-06-30T10:00:00.000Z',
      '2027-07-31T10:00:00.000Z',
      '2027-08-31T10:00:00.000Z',
      '2027-09-30T10:00:00.000Z',
      '2027-10-31T10:00:00.000Z',
      '2027-11-30T10:00:00.000Z',
      '2027-12-31T10:00:00.000Z',
    ]);
    // Each charge ran at its billing date (not before), and each order moved the date on by one period.
    mocks.charges.forEach((charge, i) =>
      expect(charge.atMs).toBeGreaterThanOrEqual(Date.parse(mocks.orders[i]!.properties.periodStart as string)),
    );
    expect(mocks.orders[11]!.properties.nextBillingAt).toBe('2028-01-31T10:00:00.000Z');
    expect(new Set(mocks.charges.map((charge) => charge.input.chargeKey)).size).toBe(12);
    expect(
      mocks.charges.every((charge) => charge.input.initiatedBy === 'merchant' && charge.input.amount === 1000),
    ).toBe(true);
  });

  it('ends a trial into the first charge', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const trialEnd = start + 14 * day;
    const state = subscriptionState({
      status: 'trialing',
      startedAtMs: start,
      anchorAtMs: trialEnd,
      trialEndsAtMs: trialEnd,
    });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(13 * day);
      expect((await handle.query(subscriptionStateQuery)).status).toBe('trialing');
      expect(mocks.charges).toHaveLength(0);
      await env.sleep(2 * day);
      const after = await handle.query(subscriptionStateQuery);
      expect(after.status).toBe('active');
      expect(after.paidOrdersCount).toBe(1);
      await handle.terminate('test over');
    });
    expect(mocks.charges).toHaveLength(1);
    expect(mocks.charges[0]!.input.reason).toBe('trial_conversion');
    expect(mocks.charges[0]!.atMs).toBeGreaterThanOrEqual(trialEnd);
    expect(mocks.orders[0]!.properties).toMatchObject({
      transition: 'trial_converted',
      periodStart: iso(trialEnd),
      nextBillingAt: iso(billingDateAt(trialEnd, 'month', 1, 1)),
    });
    expect(mocks.events).toHaveLength(1);
    expect(mocks.events[0]).toMatchObject({
      eventType: 's_subscription_renewed',
      state: { status: 'active', trialEndsAtMs: trialEnd },
      properties: { transition: 'trial_converted' },
    });
  });

  it('goes past_due on a failed renewal, then back to active when a dunning retry succeeds', async () => {
    const mocks = mockSubscriptionActivities(env, (_charge, index) => (index === 0 ? 'declined' : 'paid'));
    const start = await nowMs();
    const anchor = start + day;
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: anchor, paidOrdersCount: 0 });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await sleepUntil(anchor + 3600_000);
      const failed = await handle.query(subscriptionStateQuery);
      expect(failed.status).toBe('past_due');
      expect(failed.lastPaymentFailedAtMs).toBeGreaterThanOrEqual(anchor);
      await sleepUntil(anchor + day + 7200_000);
      const recovered = await handle.query(subscriptionStateQuery);
      expect(recovered.status).toBe('active');
      expect(recovered.paidOrdersCount).toBe(1);
      expect(recovered.dunning).toBeNull();
      await handle.terminate('test over');
    });
    expect(mocks.charges.map((charge) => charge.input.reason)).toEqual(['first_charge', 'dunning_retry']);
    // Measured against the schedule, not the first charge's activity clock (read a few ms after it fired).
    expect(mocks.charges[1]!.atMs).toBeGreaterThanOrEqual(anchor + day);
    expect(mocks.reattempts).toHaveLength(1);
    expect(mocks.events.map((event) => event.eventType)).toEqual([
      's_subscription_payment_failed',
      's_subscription_renewed',
    ]);
    // The recovered payment pays the period that failed: the next date stays on the anchor schedule.
    expect(mocks.orders[0]!.properties).toMatchObject({ transition: 'dunning_recovered', periodStart: iso(anchor) });
  });

  it('cancels when the dunning schedule is exhausted (1 failure + 4 retries over 14 days)', async () => {
    const mocks = mockSubscriptionActivities(env, () => 'declined');
    const start = await nowMs();
    const anchor = start + day;
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: anchor });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      const final = await handle.result();
      expect(final.status).toBe('canceled');
      expect(final.cancelReasonId).toBe('dunning_exhausted');
    });
    const offsetsDays = mocks.charges.map((charge) => Math.round((charge.atMs - mocks.charges[0]!.atMs) / day));
    expect(offsetsDays).toEqual([0, 1, 3, 7, 14]);
    expect(mocks.events.at(-1)!.eventType).toBe('s_subscription_expired');
    expect(mocks.orders).toHaveLength(0);
  });

  it('pauses (no charges while paused) and resumes on the anchor schedule', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + day });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(2 * day);
      expect(mocks.charges).toHaveLength(1);
      const paused = await handle.executeUpdate(pauseSubscriptionUpdate, {
        args: [{ untilMs: (await nowMs()) + 200 * day, atMs: await nowMs() }],
      });
      expect(paused.status).toBe('paused');
      // The validator refuses moves the transition table does not allow.
      await expect(
        handle.executeUpdate(pauseSubscriptionUpdate, {
          args: [{ untilMs: (await nowMs()) + day, atMs: await nowMs() }],
        }),
      ).rejects.toThrow(WorkflowUpdateFailedError);
      await env.sleep(70 * day);
      expect(mocks.charges).toHaveLength(1);
      const resumeAt = await nowMs();
      const resumed = await handle.executeUpdate(resumeSubscriptionUpdate, { args: [{ atMs: resumeAt }] });
      expect(resumed.status).toBe('active');
      expect(resumed.pausedUntilMs).toBeNull();
      await env.sleep(40 * day);
      expect(mocks.charges).toHaveLength(2);
      await handle.terminate('test over');
    });
    // The charge after the resume is on an anchor date after the resume, not at the resume.
    expect(mocks.charges[1]!.atMs).toBeGreaterThan(
      mocks.events.find((event) => event.eventType === 's_subscription_resumed')!.atMs,
    );
    expect(mocks.events.map((event) => event.eventType)).toEqual([
      's_subscription_renewed',
      's_subscription_paused',
      's_subscription_resumed',
      's_subscription_renewed',
    ]);
    expect(new Date(Date.parse(mocks.orders[1]!.properties.periodStart as string)).getUTCDate()).toBe(
      new Date(start + day).getUTCDate(),
    );
  });

  it('continues as new every N charges and keeps its state', async () => {
    const mocks = mockSubscriptionActivities(env);
    const anchor = (await nowMs()) + day;
    const state = subscriptionState({
      startedAtMs: await nowMs(),
      anchorAtMs: anchor,
      skippedDatesMs: [1],
      cancelReasonId: 'kept',
    });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state, chargesPerRun: 2 }],
      });
      const firstRunId = handle.firstExecutionRunId;
      await sleepUntil(billingDateAt(anchor, 'month', 1, 4) + day);
      const after = await handle.query(subscriptionStateQuery);
      // 5 charges with 2 per run: runs 1 and 2 made 2 each, run 3 has made 1.
      expect(after.run).toBe(3);
      expect(after.chargesThisRun).toBe(1);
      expect(after.paidOrdersCount).toBe(5);
      expect(after.cycle).toBe(5);
      expect(after.skippedDatesMs).toEqual([1]);
      expect(after.cancelReasonId).toBe('kept');
      expect(after.subscriptionId).toBe(state.subscriptionId);
      const latest = await handle.describe();
      expect(latest.runId).not.toBe(firstRunId);
      await handle.terminate('test over');
    });
    expect(mocks.orders.map((order) => order.properties.periodStart)).toEqual(
      [0, 1, 2, 3, 4].map((n) => iso(billingDateAt(anchor, 'month', 1, n))),
    );
  });
});
