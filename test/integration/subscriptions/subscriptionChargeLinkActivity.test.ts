import { readFileSync } from 'node:fs';
import path from 'node:path';
import { newId } from '../../../src/domain/ids';
import { subscriptionOrderId } from '../../../src/subscriptions/chargeLinks';
import { useSubscriptionActivities } from '../../helpers/fixtures/subscriptions';
import { subscriptionState } from '../../workflow/subscriptions/subscriptionHarness';
import { createCustomer, createRecurringPrice, createStore } from './subscriptionsFixtures';

/** Recording a paid charge links its payment to the order in the same transaction. */
describe('recordSubscriptionCharge links the payment', () => {
  const world = useSubscriptionActivities(2);

  it('links a payment started without its order (older code) to the order it writes, under the derived id', async () => {
    const store = await createStore(world.db, world.merchant);
    const { price, product, variant } = await createRecurringPrice(world.db, world.merchant, store.id, 'Linked', 1800);
    const customer = await createCustomer(world.db, world.merchant, `link-${Date.now()}@example.com`);
    const state = subscriptionState({
      accountId: world.merchant.accountId,
      storeId: store.id,
      customerId: customer.id,
      productId: product.id,
      variantId: variant.id,
      optionId: price.id,
      price: 1800,
      startedAtMs: Date.now(),
      anchorAtMs: Date.now(),
    });
    // The payment as a charge started before payments named their order: no orderId, no subscriptionId.
    const payment = await world.db.payment.create({
      data: {
        id: newId('payment'),
        accountId: world.merchant.accountId,
        mode: 'test',
        storeId: store.id,
        customerId: customer.id,
        status: 'succeeded',
        amount: 1800,
        currency: 'USD',
        initiatedBy: 'merchant',
      },
    });
    const chargeKey = `${state.subscriptionId}:c0:a0`;
    const { orderId } = await world.activities.recordSubscriptionCharge({
      state: { ...state, cycle: 1, paidOrdersCount: 1 },
      chargeKey,
      paymentId: payment.id,
      amount: 1800,
      reason: 'first_charge',
      eventType: 's_subscription_renewed',
      properties: {},
    });

    expect(orderId).toBe(subscriptionOrderId(world.merchant.accountId, 'test', chargeKey));
    expect(await world.db.order.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({
      paymentId: payment.id,
      subscriptionId: state.subscriptionId,
      status: 'paid',
      totalAmount: 1800,
    });
    expect(await world.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      orderId,
      subscriptionId: state.subscriptionId,
    });
  });

  it("the migration links charges recorded before: the order's subscription, the payment's order", async () => {
    const store = await createStore(world.db, world.merchant);
    const customer = await createCustomer(world.db, world.merchant, `backfill-${Date.now()}@example.com`);
    const scope = {
      accountId: world.merchant.accountId,
      mode: 'test' as const,
      storeId: store.id,
      customerId: customer.id,
    };
    const payment = await world.db.payment.create({
      data: { ...scope, id: newId('payment'), status: 'succeeded', amount: 900, currency: 'USD' },
    });
    const order = await world.db.order.create({
      data: {
        ...scope,
        id: newId('order'),
        status: 'paid',
        subtotal: 900,
        discountTotal: 0,
        totalAmount: 900,
        currency: 'USD',
        paymentId: payment.id,
        source: 'subscription:sub_backfilled1',
      },
    });
    const migration = readFileSync(
      path.join(__dirname, '../../../prisma/migrations/20261129010000_subscription-latest-links/migration.sql'),
      'utf8',
    );
    // Only its UPDATEs: they rewrite other rows to the values they already hold.
    const updates = migration
      .replace(/--.*$/gm, '')
      .split(';')
      .map((statement) => statement.trim())
      .filter((statement) => statement.startsWith('UPDATE'));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await world.db.$executeRawUnsafe(statement);

    expect((await world.db.order.findUniqueOrThrow({ where: { id: order.id } })).subscriptionId).toBe(
      'sub_backfilled1',
    );
    expect(await world.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      orderId: order.id,
      subscriptionId: 'sub_backfilled1',
    });
  });
});
