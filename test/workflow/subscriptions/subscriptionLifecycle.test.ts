import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { billingDateAt } from '../../../src/domain/billing';
import { subscriptionWorkflow } from '../../../workflows/subscriptions/subscription';
import {
  cancelSubscriptionUpdate,
  pauseSubscriptionUpdate,
  paymentMethodChangedSignal,
  skipNextDateUpdate,
  subscriptionStateQuery,
} from '../../../workflows/subscriptions/messages';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { day, mockSubscriptionActivities, subscriptionState } from './subscriptionHarness';

const iso = (ms: number) => new Date(ms).toISOString();

describe('subscription workflow lifecycle details (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });
  const nowMs = async () => Number(await env.currentTimeMs());

  it('cancels at period end without charging the next period', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + 3600_000 });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(2 * day);
      const scheduled = await handle.executeUpdate(cancelSubscriptionUpdate, {
        args: [{ atPeriodEnd: true, reasonId: 'moving', atMs: await nowMs() }],
      });
      expect(scheduled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
      const final = await handle.result();
      expect(final).toMatchObject({
        status: 'canceled',
        cancelReasonId: 'moving',
        canceledAtMs: billingDateAt(state.anchorAtMs, 'month', 1, 1),
      });
    });
    expect(mocks.charges).toHaveLength(1);
    expect(mocks.events.at(-1)).toMatchObject({
      eventType: 's_subscription_cancelled',
      properties: { atPeriodEnd: true },
    });
  });

  it('cancels now: the workflow ends at once with its event and no further charge', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + 3600_000 });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(2 * day);
      const cancelAt = await nowMs();
      const canceled = await handle.executeUpdate(cancelSubscriptionUpdate, {
        args: [{ atPeriodEnd: false, reasonId: 'too_expensive', atMs: cancelAt }],
      });
      expect(canceled).toMatchObject({
        status: 'canceled',
        canceledAtMs: cancelAt,
        cancelReasonId: 'too_expensive',
        cancelAtPeriodEnd: false,
      });
      expect(await handle.result()).toMatchObject({ status: 'canceled' });
    });
    expect(mocks.charges).toHaveLength(1);
    expect(mocks.events.map((event) => event.eventType)).toEqual([
      's_subscription_renewed',
      's_subscription_cancelled',
    ]);
    expect(mocks.events[1]).toMatchObject({
      state: { status: 'canceled' },
      properties: { atPeriodEnd: false, reason: 'too_expensive' },
    });
  });

  it('skips the next date (no charge that period) and bills the one after', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const anchor = start + day;
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: anchor });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      const skipped = await handle.executeUpdate(skipNextDateUpdate, { args: [{ atMs: start }] });
      expect(skipped.skippedDatesMs).toEqual([anchor]);
      await env.sleep(billingDateAt(anchor, 'month', 1, 1) - start + day);
      await handle.terminate('test over');
    });
    expect(mocks.orders.map((order) => order.properties.periodStart)).toEqual([
      iso(billingDateAt(anchor, 'month', 1, 1)),
    ]);
    expect(mocks.events[0]).toMatchObject({
      eventType: 's_subscription_updated',
      state: { skippedDatesMs: [anchor], cycle: 1 },
      properties: { change: 'date_skipped', skippedDate: iso(anchor) },
    });
  });

  it('resumes by itself when pausedUntil passes', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + 10 * day });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await handle.executeUpdate(pauseSubscriptionUpdate, { args: [{ untilMs: start + 20 * day, atMs: start }] });
      await env.sleep(21 * day);
      const after = await handle.query(subscriptionStateQuery);
      expect(after).toMatchObject({ status: 'active', pausedUntilMs: null });
      // The date inside the pause (day 10) was not billed; the next one is the anchor date after the resume.
      expect(mocks.charges).toHaveLength(0);
      expect(after.cycle).toBe(1);
      await handle.terminate('test over');
    });
    expect(mocks.events.map((event) => [event.eventType, event.properties.automatic])).toEqual([
      ['s_subscription_paused', undefined],
      ['s_subscription_resumed', true],
    ]);
  });

  it('charges the new card after a payment-method signal, and dunning stops retrying a hard-declined card', async () => {
    const mocks = mockSubscriptionActivities(env, (charge) =>
      charge.paymentMethodId === 'pi_expired' ? 'hard_decline' : 'paid',
    );
    const start = await nowMs();
    const anchor = start + day;
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: anchor, paymentMethodId: 'pi_expired' });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(day + 3600_000);
      expect((await handle.query(subscriptionStateQuery)).status).toBe('past_due');
      // Retry 1 (day +1) is not even attempted on the hard-declined card.
      await env.sleep(day + 3600_000);
      expect(mocks.charges).toHaveLength(1);
      expect((await handle.query(subscriptionStateQuery)).dunning?.retryIndex).toBe(1);
      await handle.signal(paymentMethodChangedSignal, { paymentMethodId: 'pi_new' });
      await env.sleep(3 * day);
      const recovered = await handle.query(subscriptionStateQuery);
      expect(recovered).toMatchObject({ status: 'active', paymentMethodId: 'pi_new', paidOrdersCount: 1 });
      await handle.terminate('test over');
    });
    expect(mocks.charges.map((charge) => charge.input.paymentMethodId)).toEqual(['pi_expired', 'pi_new']);
    expect(mocks.events.map((event) => event.eventType)).toEqual([
      's_subscription_payment_failed',
      's_subscription_payment_failed',
      's_subscription_updated',
      's_subscription_renewed',
    ]);
  });

  it('takes the card from the row, so a signal overtaken by a later change leaves the later card', async () => {
    const mocks = mockSubscriptionActivities(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + day, paymentMethodId: 'pi_first' });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      // Two portal changes committed B then C on the row; their signals arrive C first, then B.
      mocks.row.card = 'pi_c';
      await handle.signal(paymentMethodChangedSignal, { paymentMethodId: 'pi_c' });
      await handle.signal(paymentMethodChangedSignal, { paymentMethodId: 'pi_b' });
      await env.sleep(day + 3600_000);
      expect(await handle.query(subscriptionStateQuery)).toMatchObject({ paymentMethodId: 'pi_c', paidOrdersCount: 1 });
      await handle.terminate('test over');
    });
    expect(mocks.charges.map((charge) => charge.input.paymentMethodId)).toEqual(['pi_c']);
    expect(mocks.events.filter((event) => event.eventType === 's_subscription_updated')).toHaveLength(1);
  });
});
