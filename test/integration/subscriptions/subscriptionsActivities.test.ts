import { newId } from '../../../src/domain/ids';
import { insertActiveSubscription, stateOf, useSubscriptionActivities } from '../../helpers/fixtures/subscriptions';
import { createCard, createCustomer, createRecurringPrice, createStore } from './subscriptionsFixtures';

const hour = 3600_000;
const day = 24 * hour;

/** What the workflow passes with a paid renewal (workflows/subscriptions/charge.ts). */
const renewal = {
  transition: 'renewal_paid',
  periodStart: '2026-01-01T00:00:00.000Z',
  nextBillingAt: '2026-02-01T00:00:00.000Z',
};

describe('subscription activities against Postgres', () => {
  const world = useSubscriptionActivities(5);

  async function card(brand: string) {
    const customer = await createCustomer(world.db, world.merchant, `${brand}-${Date.now()}@example.com`);
    const row = await createCard(world.db, world.config, world.merchant, customer.id, '4242424242424242');
    await world.db.paymentInstrument.update({ where: { id: row.id }, data: { brand } });
    return row.id;
  }
  const reserve = (paymentMethodId: string, atMs: number, hardDeclined = false) =>
    world.activities.reserveCardReattempt({
      chargeKey: `sub_x:${newId('request')}`,
      accountId: world.merchant.accountId,
      mode: 'test',
      subscriptionId: 'sub_x',
      paymentMethodId,
      atMs,
      hardDeclined,
    });

  it('counts Mastercard reattempts per card: the 11th in 24 hours is refused, a day later it is allowed again', async () => {
    const cardId = await card('mastercard');
    const start = Date.parse('2027-03-01T00:00:00.000Z');
    for (let i = 0; i < 10; i++) expect(await reserve(cardId, start + i * hour)).toEqual({ allowed: true });
    expect(await reserve(cardId, start + 10 * hour)).toMatchObject({ allowed: false, reason: 'network_cap', max: 10 });
    expect(await reserve(cardId, start + 9 * hour + day + 1)).toEqual({ allowed: true });
    expect(await world.db.cardReattempt.count({ where: { paymentMethodId: cardId } })).toBe(11);
  });

  it('Visa: 15 reattempts in 30 days, concurrent reservations never exceed the cap; hard declines are never retried', async () => {
    const cardId = await card('visa');
    const at = Date.parse('2027-04-10T00:00:00.000Z');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => reserve(cardId, at + i * 1000)));
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(15);
    expect(await world.db.cardReattempt.count({ where: { paymentMethodId: cardId } })).toBe(15);
    expect(await reserve(await card('visa'), at, true)).toEqual({ allowed: false, reason: 'hard_decline' });
  });

  it('records a paid charge once even when the activity is retried, and tops up membership credits once', async () => {
    const store = await createStore(world.db, world.merchant);
    const { price, product, variant } = await createRecurringPrice(world.db, world.merchant, store.id, 'Club', 2500);
    const customer = await createCustomer(world.db, world.merchant, `club-${Date.now()}@example.com`);
    const state = await insertActiveSubscription(
      world.db,
      stateOf(
        { merchant: world.merchant, storeId: store.id, plan: { product, variant, price }, customerId: customer.id },
        { price: 2500, startedAtMs: Date.now(), anchorAtMs: Date.now() },
      ),
    );
    const program = await world.db.membershipProgram.create({
      data: {
        id: newId('membershipProgram'),
        accountId: world.merchant.accountId,
        mode: 'test',
        storeId: store.id,
        name: 'Club',
        optionId: price.id,
        creditsPerRenewal: 4,
      },
    });
    const membership = await world.db.membership.create({
      data: {
        id: newId('membership'),
        accountId: world.merchant.accountId,
        mode: 'test',
        storeId: store.id,
        customerId: customer.id,
        programId: program.id,
        subscriptionId: state.subscriptionId,
        status: 'active',
        billing: 'monthly',
        startedAt: new Date(),
        paymentMethodId: 'pi_x',
      },
    });

    const paid = { ...state, cycle: 1, paidOrdersCount: 1 };
    const input = {
      state: paid,
      chargeKey: `${state.subscriptionId}:c0:a0`,
      paymentId: null,
      amount: 2500,
      reason: 'first_charge' as const,
      eventType: 's_subscription_renewed',
      properties: renewal,
    };
    // Ten deliveries of one charge at once (activity retries racing): one order, every answer names it.
    const deliveries = await Promise.all(
      Array.from({ length: 10 }, () =>
        world.activities.recordSubscriptionCharge(input).catch(() => world.activities.recordSubscriptionCharge(input)),
      ),
    );
    const first = deliveries[0]!;
    expect(new Set(deliveries.map((answer) => answer.orderId))).toEqual(new Set([first.orderId]));
    expect(await world.db.order.count({ where: { source: `subscription:${state.subscriptionId}` } })).toBe(1);
    expect((await world.db.membership.findUniqueOrThrow({ where: { id: membership.id } })).creditsBalance).toBe(4);
    const row = await world.db.subscription.findUniqueOrThrow({ where: { id: state.subscriptionId } });
    expect(row.paidOrdersCount).toBe(1);
    expect(row.nextBillingAt?.getUTCMonth()).toBe((new Date(state.anchorAtMs).getUTCMonth() + 1) % 12);
    expect(await world.db.event.count({ where: { properties: { path: ['orderId'], equals: first.orderId } } })).toBe(2);

    // Another charge is another order, even when it carries the same counters (racing switches did):
    // it never answers with an order it did not write.
    const other = await world.activities.recordSubscriptionCharge({
      ...input,
      chargeKey: `${state.subscriptionId}:switch:x`,
      reason: 'switch',
    });
    expect(other.orderId).not.toBe(first.orderId);
    expect(await world.db.order.count({ where: { source: `subscription:${state.subscriptionId}` } })).toBe(2);
  });

  it('keeps a member on their program at each renewal (two programs), moves it only on a switch, and allows one program per price', async () => {
    const store = await createStore(world.db, world.merchant);
    const gold = await createRecurringPrice(world.db, world.merchant, store.id, 'Gold', 3000);
    const silver = await createRecurringPrice(world.db, world.merchant, store.id, 'Silver', 1000);
    const customer = await createCustomer(world.db, world.merchant, `two-programs-${Date.now()}@example.com`);
    const program = (name: string, optionId: string, creditsPerRenewal: number) =>
      world.db.membershipProgram.create({
        data: {
          id: newId('membershipProgram'),
          accountId: world.merchant.accountId,
          mode: 'test',
          storeId: store.id,
          name,
          optionId,
          creditsPerRenewal,
        },
      });
    const goldProgram = await program('Gold', gold.price.id, 7);
    const silverProgram = await program('Silver', silver.price.id, 2);
    await expect(program('Gold again', gold.price.id, 50)).rejects.toMatchObject({ code: 'P2002' });

    const state = await insertActiveSubscription(
      world.db,
      stateOf(
        { merchant: world.merchant, storeId: store.id, plan: gold, customerId: customer.id },
        { price: 3000, startedAtMs: Date.now(), anchorAtMs: Date.now() },
      ),
    );
    const membership = await world.db.membership.create({
      data: {
        id: newId('membership'),
        accountId: world.merchant.accountId,
        mode: 'test',
        storeId: store.id,
        customerId: customer.id,
        programId: goldProgram.id,
        subscriptionId: state.subscriptionId,
        status: 'active',
        billing: 'monthly',
        startedAt: new Date(),
        paymentMethodId: 'pi_x',
      },
    });
    const charge = (paidOrdersCount: number, overrides: Partial<typeof state> = {}) =>
      world.activities.recordSubscriptionCharge({
        state: { ...state, cycle: paidOrdersCount, paidOrdersCount, ...overrides },
        chargeKey: `${state.subscriptionId}:c${paidOrdersCount}:a0`,
        paymentId: null,
        amount: overrides.price ?? 3000,
        reason: paidOrdersCount === 1 ? 'first_charge' : 'renewal',
        eventType: 's_subscription_renewed',
        properties: renewal,
      });
    const member = () => world.db.membership.findUniqueOrThrow({ where: { id: membership.id } });

    await charge(1);
    expect(await member()).toMatchObject({ programId: goldProgram.id, creditsBalance: 7 });
    // The second renewal tops up again, on the same program.
    await charge(2);
    expect(await member()).toMatchObject({ programId: goldProgram.id, creditsBalance: 14 });
    // A switch to the silver price moves the member to the silver program and adds its credits.
    await charge(3, {
      optionId: silver.price.id,
      productId: silver.product.id,
      variantId: silver.variant.id,
      price: 1000,
    });
    expect(await member()).toMatchObject({ programId: silverProgram.id, creditsBalance: 16 });
  });
});
