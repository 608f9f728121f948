import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { subscriptionWorkflow } from '../../../workflows/subscriptions/subscription';
import { subscriptionStateQuery, switchOptionUpdate } from '../../../workflows/subscriptions/messages';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { day, mockSubscriptionActivities, subscriptionState } from './subscriptionHarness';

describe('subscription workflow: switching options (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  const nowMs = async () => Number(await env.currentTimeMs());

  it('switches mid-period with proration, and a declined switch leaves the old option', async () => {
    const mocks = mockSubscriptionActivities(env, (charge) =>
      charge.reason === 'switch' && charge.amount > 5000 ? 'declined' : 'paid',
    );
    const start = await nowMs();
    const state = subscriptionState({
      startedAtMs: start,
      anchorAtMs: start + 3600_000,
      interval: 'day',
      intervalCount: 30,
    });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(subscriptionWorkflow, {
        workflowId: state.subscriptionId,
        taskQueue,
        args: [{ state }],
      });
      await env.sleep(15 * day + 3600_000);
      const declined = await handle.executeUpdate(switchOptionUpdate, {
        args: [
          {
            optionId: 'price_huge',
            productId: 'prod_huge',
            variantId: 'var_huge',
            price: 9000,
            currency: 'USD',
            interval: 'month',
            intervalCount: 1,
            atMs: await nowMs(),
          },
        ],
      });
      expect(declined.status).toBe('declined');
      expect(declined.orderId).toBeNull();
      expect(declined.state.optionId).toBe('price_basic');
      expect((await handle.query(subscriptionStateQuery)).price).toBe(1000);

      const switchAt = await nowMs();
      const answer = await handle.executeUpdate(switchOptionUpdate, {
        args: [
          {
            optionId: 'price_pro',
            productId: 'prod_pro',
            variantId: 'var_pro',
            price: 3000,
            currency: 'USD',
            interval: 'month',
            intervalCount: 1,
            atMs: switchAt,
          },
        ],
      });
      expect(answer.status).toBe('paid');
      expect(answer.orderId).toBe('ord_2');
      // About half of the 30-day period was unused: ~500 of the old 1000 is credited against 3000.
      const periodEnd = state.anchorAtMs + 30 * day;
      const credit = Math.floor((1000 * (periodEnd - switchAt)) / (30 * day));
      expect(credit).toBeGreaterThanOrEqual(499);
      expect(credit).toBeLessThanOrEqual(500);
      expect(answer.amountCharged).toBe(3000 - credit);
      expect(answer.state).toMatchObject({
        optionId: 'price_pro',
        price: 3000,
        interval: 'month',
        anchorAtMs: switchAt,
        cycle: 1,
        paidOrdersCount: 2,
      });

      await expect(
        handle.executeUpdate(switchOptionUpdate, {
          args: [
            {
              optionId: 'price_eur',
              productId: 'p',
              variantId: 'v',
              price: 100,
              currency: 'EUR',
              interval: 'month',
              intervalCount: 1,
              atMs: switchAt,
            },
          ],
        }),
      ).rejects.toThrow(WorkflowUpdateFailedError);
      await handle.terminate('test over');
    });
    const switchCharges = mocks.charges.filter((charge) => charge.input.reason === 'switch');
    expect(switchCharges).toHaveLength(2);
    expect(switchCharges[0]!.input.amount).toBeGreaterThanOrEqual(8500);
    expect(switchCharges[0]!.input.amount).toBeLessThanOrEqual(8501);
    expect(switchCharges.every((charge) => charge.input.initiatedBy === 'customer')).toBe(true);
    expect(mocks.orders[1]!.amount).toBe(switchCharges[1]!.input.amount);
    const switched = mocks.events.filter((event) => event.properties.change === 'switched');
    expect(switched).toHaveLength(1);
    expect(switched[0]).toMatchObject({
      eventType: 's_subscription_updated',
      state: { optionId: 'price_pro', price: 3000 },
      properties: {
        fromOptionId: 'price_basic',
        toOptionId: 'price_pro',
        amountCharged: switchCharges[1]!.input.amount,
        credit: 3000 - switchCharges[1]!.input.amount,
      },
    });
  });
});
