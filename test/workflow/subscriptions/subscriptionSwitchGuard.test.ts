import type { Activities } from '../../../activities';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import type { SubscriptionChargeInput } from '../../../src/domain/billingState';
import { subscriptionWorkflow } from '../../../workflows/subscriptions/subscription';
import {
  paymentMethodChangedSignal,
  subscriptionStateQuery,
  switchOptionUpdate,
} from '../../../workflows/subscriptions/messages';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import {
  day,
  eventually,
  gate,
  heldCharges,
  mockSubscriptionActivities,
  outcomeOf,
  subscriptionState,
  switchRequest,
} from './subscriptionHarness';

/** How many updates of this name the workflow accepted (a validator's refusal never reaches the history). */
async function acceptedUpdates(handle: WorkflowHandle, name: string): Promise<number> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter(
    (event) => event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === name,
  ).length;
}

/** True once the workflow started a timer (the billing loop's sleep) after its last completed update. */
async function sleepsAgainAfterUpdate(handle: WorkflowHandle): Promise<boolean> {
  const events = (await handle.fetchHistory()).events ?? [];
  const idOf = (event: (typeof events)[number]) => Number(event.eventId);
  const updated = events.filter((event) => event.workflowExecutionUpdateCompletedEventAttributes).map(idOf);
  const timers = events.filter((event) => event.timerStartedEventAttributes).map(idOf);
  return updated.length > 0 && timers.some((id) => id > Math.max(...updated));
}

describe('subscription switch guard: one switch or charge at a time (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });
  const nowMs = async () => Number(await env.currentTimeMs());
  const switchTo = switchRequest;

  it('ten switch updates sent together: the validator accepts one, refuses the rest before they are queued, and one charge is made', async () => {
    const { mocks, held, started: switchCharges, activities } = heldCharges(env);
    const start = await nowMs();
    // A paid period that ends in 10 days: the first charge happened already.
    const state = subscriptionState({
      startedAtMs: start - 20 * day,
      anchorAtMs: start - 20 * day,
      cycle: 1,
      paidOrdersCount: 1,
    });
    await withWorker(env, activities, async (taskQueue) => {
      try {
        const handle = await env.client.workflow.start(subscriptionWorkflow, {
          workflowId: state.subscriptionId,
          taskQueue,
          args: [{ state }],
        });
        const atMs = await nowMs();
        const sent = await Promise.all(
          Array.from({ length: 10 }, () =>
            handle.startUpdate(switchOptionUpdate, {
              args: [switchTo('price_pro', atMs)],
              waitForStage: WorkflowUpdateStage.ACCEPTED,
            }),
          ),
        );
        // Sent while the first is still charging: another option is busy, not queued either.
        const other = await handle.startUpdate(switchOptionUpdate, {
          args: [switchTo('price_max', atMs)],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        });
        expect(await outcomeOf(other.result())).toBe('SubscriptionBusyError');
        await eventually(() => switchCharges.length === 1);
        held.open();

        const outcomes = await Promise.all(sent.map((update) => outcomeOf(update.result())));
        expect(outcomes.filter((outcome) => outcome === 'completed')).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === 'SubscriptionSameOptionError')).toHaveLength(9);
        expect(await acceptedUpdates(handle, 'switchOption')).toBe(1);

        // Once it has switched, the same option again is SAME_OPTION; nothing is charged for it.
        expect(
          await outcomeOf(handle.executeUpdate(switchOptionUpdate, { args: [switchTo('price_pro', await nowMs())] })),
        ).toBe('SubscriptionSameOptionError');
        expect(await handle.query(subscriptionStateQuery)).toMatchObject({ optionId: 'price_pro', paidOrdersCount: 2 });
        await handle.terminate('test over');
      } finally {
        held.open(); // a failed expectation must not leave the worker waiting on a held activity
      }
    });
    expect(switchCharges).toEqual(['switch']);
    expect(mocks.orders.filter((order) => order.reason === 'switch')).toHaveLength(1);
    expect(mocks.events.filter((event) => event.properties.change === 'switched')).toHaveLength(1);
  });

  it('refuses a switch as busy while a renewal is charging', async () => {
    const { mocks, held, started, activities } = heldCharges(env);
    const start = await nowMs();
    const state = subscriptionState({ startedAtMs: start, anchorAtMs: start });
    await withWorker(env, activities, async (taskQueue) => {
      try {
        const handle = await env.client.workflow.start(subscriptionWorkflow, {
          workflowId: state.subscriptionId,
          taskQueue,
          args: [{ state }],
        });
        await eventually(() => started.length === 1);
        const refused = await handle.startUpdate(switchOptionUpdate, {
          args: [switchTo('price_pro', await nowMs())],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        });
        expect(await outcomeOf(refused.result())).toBe('SubscriptionBusyError');
        held.open();
        await eventually(async () => (await handle.query(subscriptionStateQuery)).paidOrdersCount === 1);
        expect(await acceptedUpdates(handle, 'switchOption')).toBe(0);
        await handle.terminate('test over');
      } finally {
        held.open();
      }
    });
    expect(mocks.charges.map((charge) => charge.input.reason)).toEqual(['first_charge']);
  });

  it('a billing date that falls due while a switch is charging is re-read after it: the re-anchored subscription is not charged again', async () => {
    const { mocks, held, started: switchCharges, activities } = heldCharges(env);
    await withWorker(env, activities, async (taskQueue) => {
      try {
        // The paid (weekly) period ends 5 s from now (read once the worker runs; time skipping is locked meanwhile).
        const start = await nowMs();
        const periodEnd = start + 5_000;
        const state = subscriptionState({
          interval: 'week',
          startedAtMs: periodEnd - 7 * day,
          anchorAtMs: periodEnd - 7 * day,
          cycle: 1,
          paidOrdersCount: 1,
        });
        const handle = await env.client.workflow.start(subscriptionWorkflow, {
          workflowId: state.subscriptionId,
          taskQueue,
          args: [{ state }],
        });
        const switched = handle.executeUpdate(switchOptionUpdate, { args: [switchTo('price_pro', start)] });
        await eventually(() => switchCharges.length === 1);
        // The old billing date passes (and the billing loop wakes for it) while the switch's charge is out.
        await eventually(async () => (await nowMs()) > periodEnd + 1_500);
        held.open();
        expect(await switched).toMatchObject({ status: 'paid' });
        // Whatever the billing loop does once the switch ends, it has done it when it sleeps again.
        await eventually(() => sleepsAgainAfterUpdate(handle));
        expect(await handle.query(subscriptionStateQuery)).toMatchObject({
          optionId: 'price_pro',
          paidOrdersCount: 2,
          cycle: 1,
          anchorAtMs: start,
        });
        await handle.terminate('test over');
      } finally {
        held.open();
      }
    });
    expect(mocks.charges.map((charge) => charge.input.reason)).toEqual(['switch']);
  });

  it('changes waiting for their turn run one after another: a renewal and a switch queued behind a card change never charge at once', async () => {
    const mocks = mockSubscriptionActivities(env);
    const held = gate();
    let cardChangeSaving = false;
    const save = mocks.activities.saveSubscriptionState;
    const log: string[] = [];
    const activities: Partial<Activities> = {
      ...mocks.activities,
      async saveSubscriptionState(input: Parameters<typeof save>[0]) {
        if (input.properties.change === 'payment_method') {
          cardChangeSaving = true;
          await held.opened;
        }
        return save(input);
      },
      async prepareRenewalPayment(input: SubscriptionChargeInput) {
        log.push('renewal charge');
        return mocks.activities.prepareRenewalPayment(input);
      },
      async chargeSubscription(input: SubscriptionChargeInput) {
        log.push('switch charge');
        return mocks.activities.chargeSubscription(input);
      },
      async recordSubscriptionCharge(input: Parameters<typeof mocks.activities.recordSubscriptionCharge>[0]) {
        log.push(`${input.reason} recorded`);
        return mocks.activities.recordSubscriptionCharge(input);
      },
    };
    await withWorker(env, activities, async (taskQueue) => {
      try {
        const start = await nowMs();
        const periodEnd = start + 5_000;
        const state = subscriptionState({
          interval: 'week',
          startedAtMs: periodEnd - 7 * day,
          anchorAtMs: periodEnd - 7 * day,
          cycle: 1,
          paidOrdersCount: 1,
        });
        const handle = await env.client.workflow.start(subscriptionWorkflow, {
          workflowId: state.subscriptionId,
          taskQueue,
          args: [{ state }],
        });
        await handle.signal(paymentMethodChangedSignal, { paymentMethodId: 'pi_card2' });
        await eventually(() => cardChangeSaving);
        // The billing date passes while the card change holds the lock: the billing loop queues behind it.
        await eventually(async () => (await nowMs()) > periodEnd + 1_500);
        const switched = await handle.startUpdate(switchOptionUpdate, {
          args: [switchTo('price_pro', await nowMs())],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        });
        held.open();
        const answer = await switched.result();
        expect(answer.status).toBe('paid');
        // The switch ran after the renewal paid the new period, so that period is credited.
        expect(answer.amountCharged).toBeLessThanOrEqual(2001);
        await handle.terminate('test over');
      } finally {
        held.open();
      }
    });
    expect(log).toEqual(['renewal charge', 'renewal recorded', 'switch charge', 'switch recorded']);
  });
});
