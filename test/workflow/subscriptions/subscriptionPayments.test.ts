import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { paymentWorkflow } from '../../../workflows/payments/payment';
import { subscriptionWorkflow } from '../../../workflows/subscriptions/subscription';
import {
  cancelSubscriptionUpdate,
  pauseSubscriptionUpdate,
  skipNextDateUpdate,
  subscriptionStateQuery,
  switchOptionUpdate,
} from '../../../workflows/subscriptions/messages';
import { createTimeSkippingEnv, executeUpdateOnce, step, untilQuiescent, withWorker } from '../../helpers/timeSkipping';
import { paymentInput } from '../payments/paymentMocks';
import { day, eventually, mockSubscriptionActivities, subscriptionState, switchRequest } from './subscriptionHarness';

/** Resolves when the test says how the challenged payment ended. */
function challengeGate() {
  let settle: (ended: 'paid' | 'declined') => void = () => undefined;
  const ended = new Promise<'paid' | 'declined'>((resolve) => {
    settle = resolve;
  });
  return { ended, settle };
}

describe('subscription charges: child payments, card budget, 3DS switch follow-up (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  // A test server per test: after the refused updates of the 3DS switch test, the Java test
  // server's clock sometimes stays locked (about 1 run in 4), and the next test's sleep never
  // ends; the same tests on a fresh server do not hang.
  beforeEach(async () => {
    env = await createTimeSkippingEnv();
  });
  afterEach(async () => {
    await env?.teardown();
  });
  const nowMs = async () => Number(await env.currentTimeMs());
  const switchTo = (atMs: number) => switchRequest('price_pro', atMs);

  it('charges a renewal as a child payment workflow and follows an already-started payment instead of charging again', async () => {
    const mocks = mockSubscriptionActivities(env);
    const subscriptionId = subscriptionState().subscriptionId;
    const paymentIdOf = (chargeKey: string) => `pay_${`${subscriptionId}:${chargeKey}`.replace(/[^A-Za-z0-9]/g, '_')}`;
    const firstPaymentId = paymentIdOf('c0:a0');
    await withWorker(env, mocks.activities, async (taskQueue) => {
      // The first renewal's payment already ran (e.g. started by an older run's charge activity).
      await env.client.workflow.execute(paymentWorkflow, {
        workflowId: firstPaymentId,
        taskQueue,
        args: [paymentInput({ paymentId: firstPaymentId, amount: 1000, initiatedBy: 'merchant' })],
      });
      expect(mocks.payments.authorizeCalls).toHaveLength(1);

      // Read after the payment ran: waiting on a result lets the test server skip time.
      const start = await nowMs();
      const state = subscriptionState({ subscriptionId, startedAtMs: start, anchorAtMs: start + day });
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(day + 3600_000);
      expect((await handle.query(subscriptionStateQuery)).paidOrdersCount).toBe(1);
      // Not started twice: the workflow followed the existing payment to its end.
      expect(mocks.payments.authorizeCalls).toHaveLength(1);
      expect(mocks.awaited).toEqual([firstPaymentId]);

      await env.sleep(31 * day);
      expect((await handle.query(subscriptionStateQuery)).paidOrdersCount).toBe(2);
      const second = await env.client.workflow.getHandle(paymentIdOf('c1:a0')).describe();
      expect(second.parentExecution?.workflowId).toBe(subscriptionId);
      expect(second.type).toBe('paymentWorkflow');
      await handle.terminate('test over');
    });
    expect(mocks.payments.authorizeCalls.map((call) => call.paymentId)).toEqual([firstPaymentId, paymentIdOf('c1:a0')]);
    expect(mocks.payments.authorizeCalls.every((call) => call.initiatedBy === 'merchant')).toBe(true);
  });

  it('does not charge a dunning retry the card budget refuses, records it as failed, and expires when the schedule ends', async () => {
    const mocks = mockSubscriptionActivities(env, () => 'declined', {
      reattempt: () => ({ allowed: false, reason: 'network_cap', windowMs: 30 * day, max: 15 }),
    });
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + day });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      const final = await handle.result();
      expect(final).toMatchObject({ status: 'canceled', cancelReasonId: 'dunning_exhausted', dunning: null });
    });
    // Only the first charge reached a processor; the four retries were refused before any charge.
    expect(mocks.charges).toHaveLength(1);
    expect(mocks.payments.authorizeCalls).toHaveLength(1);
    expect(mocks.reattempts).toHaveLength(4);
    const failed = mocks.events.filter((event) => event.eventType === 's_subscription_payment_failed');
    expect(failed).toHaveLength(4);
    for (const event of failed.slice(1))
      expect(event.properties).toMatchObject({ declineCode: 'reattempt_refused_network_cap', refused: true });
    expect(mocks.events.at(-1)).toMatchObject({
      eventType: 's_subscription_expired',
      properties: { reason: 'dunning_exhausted', declineCode: 'reattempt_refused_network_cap' },
    });
    expect(mocks.orders).toHaveLength(0);
  });

  it('a switch waiting for its 3DS challenge answers requires_action, refuses other changes as busy, then switches when paid', async () => {
    const gate = challengeGate();
    const mocks = mockSubscriptionActivities(
      env,
      (charge) => (charge.reason === 'switch' ? 'requires_action' : 'paid'),
      { challengeResult: () => gate.ended },
    );
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + 3600_000 });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(2 * day);
      const answer = await executeUpdateOnce(handle, switchOptionUpdate, [switchTo(await nowMs())]);
      expect(answer).toMatchObject({
        status: 'requires_action',
        orderId: null,
        amountCharged: 0,
        redirectUrl: 'https://acs.example/challenge',
      });
      expect(answer.state).toMatchObject({ optionId: 'price_basic', price: 1000 });
      const pendingPaymentId = answer.paymentId!;
      await eventually(() => mocks.awaited.includes(pendingPaymentId));

      for (const [update, type] of [
        [
          handle.executeUpdate(cancelSubscriptionUpdate, { args: [{ atPeriodEnd: false, atMs: start }] }),
          'SubscriptionBusyError',
        ],
        [
          handle.executeUpdate(pauseSubscriptionUpdate, { args: [{ untilMs: start + 100 * day, atMs: start }] }),
          'SubscriptionBusyError',
        ],
        [handle.executeUpdate(skipNextDateUpdate, { args: [{ atMs: start }] }), 'SubscriptionBusyError'],
        [
          handle.executeUpdate(switchOptionUpdate, { args: [{ ...switchTo(start), optionId: 'price_max' }] }),
          'SubscriptionBusyError',
        ],
        // The option the waiting switch moves to: the same switch again.
        [handle.executeUpdate(switchOptionUpdate, { args: [switchTo(start)] }), 'SubscriptionSameOptionError'],
      ] as const) {
        const refused = await update.then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
        expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({ type });
      }
      expect((await handle.query(subscriptionStateQuery)).status).toBe('active');

      gate.settle('paid');
      await eventually(async () => (await handle.query(subscriptionStateQuery)).optionId === 'price_pro');
      expect(await handle.query(subscriptionStateQuery)).toMatchObject({
        optionId: 'price_pro',
        price: 3000,
        pendingSwitch: null,
        paidOrdersCount: 2,
        status: 'active',
      });
      await handle.terminate('test over');
    });
    const switched = mocks.events.at(-1)!;
    expect(switched).toMatchObject({
      eventType: 's_subscription_updated',
      properties: { change: 'switched', fromOptionId: 'price_basic', toOptionId: 'price_pro' },
    });
    expect(mocks.orders.at(-1)).toMatchObject({ reason: 'switch', amount: switched.properties.amountCharged });
  });

  it('a challenged switch whose payment is declined is abandoned and leaves the subscription unchanged', async () => {
    const gate = challengeGate();
    const mocks = mockSubscriptionActivities(
      env,
      (charge) => (charge.reason === 'switch' ? 'requires_action' : 'paid'),
      { challengeResult: () => gate.ended },
    );
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start + 3600_000 });
    await step(
      'worker run and shutdown',
      withWorker(env, mocks.activities, async (taskQueue) => {
        const handle = await env.client.workflow.start(subscriptionWorkflow, {
          workflowId: state.subscriptionId,
          taskQueue,
          args: [{ state }],
        });
        await step('sleep 2 days', env.sleep(2 * day));
        const before = await handle.query(subscriptionStateQuery);
        const answer = await executeUpdateOnce(handle, switchOptionUpdate, [switchTo(await nowMs())]);
        expect(answer.status).toBe('requires_action');
        await eventually(() => mocks.awaited.includes(answer.paymentId!));
        gate.settle('declined');
        await eventually(async () => !(await handle.query(subscriptionStateQuery)).pendingSwitch);
        const after = await handle.query(subscriptionStateQuery);
        const { pendingSwitch: _before, ...unchanged } = before;
        expect(after).toMatchObject({ ...unchanged, pendingSwitch: null });
        // No longer busy: a change goes through again.
        await untilQuiescent(handle);
        const skipped = await executeUpdateOnce(handle, skipNextDateUpdate, [{ atMs: await nowMs() }]);
        expect(skipped.skippedDatesMs).toHaveLength(1);
        await step('terminate', handle.terminate('test over'));
      }),
      90_000,
    );
    expect(mocks.orders).toHaveLength(1);
    expect(mocks.events.find((event) => event.properties.change === 'switch_abandoned')).toMatchObject({
      eventType: 's_subscription_updated',
      properties: { toOptionId: 'price_pro', declineCode: 'threeds_authentication_failed' },
    });
  });
});
