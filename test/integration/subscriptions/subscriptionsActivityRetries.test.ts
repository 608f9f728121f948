import { insertActiveSubscription, stateOf, useSubscriptionActivities } from '../../helpers/fixtures/subscriptions';
import { createCard, createCustomer, createRecurringPrice, createStore } from './subscriptionsFixtures';

/** Activities retried after their commit (a lost completion) must not write twice. */
describe('subscription activities retried after commit', () => {
  const world = useSubscriptionActivities(12);

  it('a state write delivered 10 times at once, then again, records its event once; the next write records its own', async () => {
    const store = await createStore(world.db, world.merchant);
    const { price, product, variant } = await createRecurringPrice(world.db, world.merchant, store.id, 'Box', 1500);
    const customer = await createCustomer(world.db, world.merchant, `retry-${Date.now()}@example.com`);
    const state = await insertActiveSubscription(
      world.db,
      stateOf(
        { merchant: world.merchant, storeId: store.id, plan: { product, variant, price }, customerId: customer.id },
        { price: 1500, startedAtMs: Date.now(), anchorAtMs: Date.now() },
      ),
    );
    const events = () =>
      world.db.event.count({
        where: {
          eventType: 's_subscription_paused',
          properties: { path: ['subscriptionId'], equals: state.subscriptionId },
        },
      });
    const paused = {
      state: { ...state, status: 'paused' as const },
      stateKey: 'write-1',
      eventType: 's_subscription_paused',
      properties: { pausedUntil: '2030-01-01T00:00:00.000Z' },
    };

    await Promise.all(Array.from({ length: 10 }, () => world.activities.saveSubscriptionState(paused)));
    await world.activities.saveSubscriptionState(paused);
    expect(await events()).toBe(1);
    expect((await world.db.subscription.findUniqueOrThrow({ where: { id: state.subscriptionId } })).status).toBe(
      'paused',
    );

    await world.activities.saveSubscriptionState({ ...paused, stateKey: 'write-2' });
    expect(await events()).toBe(2);
  });

  it('a card reattempt reserved 10 times at once for one charge spends one reattempt, and every delivery is allowed', async () => {
    const customer = await createCustomer(world.db, world.merchant, `reattempt-${Date.now()}@example.com`);
    const card = await createCard(world.db, world.config, world.merchant, customer.id, '4242424242424242');
    const reserve = () =>
      world.activities.reserveCardReattempt({
        chargeKey: 'sub_retry:c3:a2',
        accountId: world.merchant.accountId,
        mode: 'test',
        subscriptionId: 'sub_retry',
        paymentMethodId: card.id,
        atMs: Date.parse('2027-06-01T00:00:00.000Z'),
        hardDeclined: false,
      });
    const answers = await Promise.all(Array.from({ length: 10 }, reserve));
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ allowed: true })));
    expect(await reserve()).toEqual({ allowed: true });
    expect(await world.db.cardReattempt.count({ where: { paymentMethodId: card.id } })).toBe(1);
  });
});
