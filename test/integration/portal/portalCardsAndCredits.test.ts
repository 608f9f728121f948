import { subscriptionStateQuery } from '../../../workflows/subscriptions/messages';
import { call } from '../../helpers/harness';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  eventually,
  goodCard,
  portalLogin,
} from '../subscriptions/subscriptionsFixtures';
import { usePortalWorld } from './portalWorld';

/** Portal default card and membership credit redemption. */
describe('customer portal: default card and credits', () => {
  const world = usePortalWorld();

  it('sets the default card on every live subscription; another customer’s card is 404', async () => {
    const { harness, merchant, storeA, basic, pro, customerId, email, portal, subscribe } = world;
    const token = await portalLogin(harness, storeA, email);
    const first = await subscribe(storeA, basic.price.id);
    const second = await subscribe(storeA, pro.price.id);
    const newCard = await createCard(harness.db, harness.config, merchant, customerId, '5555555555554444');
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: newCard.id })).body).toEqual({
      ok: true,
    });
    for (const id of [first.id, second.id]) {
      expect((await harness.db.subscription.findUniqueOrThrow({ where: { id } })).paymentMethodId).toBe(newCard.id);
      await eventually(
        () => harness.temporal.workflow.getHandle(id).query(subscriptionStateQuery),
        (state) => state.paymentMethodId === newCard.id,
      );
    }
    expect(
      (await harness.db.customerDefaultPaymentMethod.findUniqueOrThrow({ where: { customerId } })).paymentMethodId,
    ).toBe(newCard.id);

    const other = await createCustomer(harness.db, merchant, `other-${Date.now()}@example.com`);
    const othersCard = await createCard(harness.db, harness.config, merchant, other.id, goodCard);
    const refused = await portal(token, '/payment-methods/default', { paymentMethodId: othersCard.id });
    expect(refused.status).toBe(404);
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: '' })).status).toBe(400);
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: 'x'.repeat(65) })).status).toBe(400);
  });

  it('redeems membership credits atomically: concurrent redemptions never overspend; insufficient credits is a 409', async () => {
    const { harness, merchant, storeA, customerId, goodCardId, email, portal } = world;
    const membershipPrice = await createRecurringPrice(harness.db, merchant, storeA, 'Club', 2000);
    const program = await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: merchant.token,
      body: { storeId: storeA, name: 'Club', optionId: membershipPrice.price.id, creditsPerRenewal: 5 },
    });
    expect(program.status).toBe(201);
    const membership = await call(harness, 'POST', '/api/public/v1/memberships', {
      token: merchant.token,
      body: { programId: program.body.id, customerId, paymentMethodId: goodCardId },
    });
    expect(membership.status).toBe(201);
    expect(membership.body).toMatchObject({ billing: 'monthly', creditsBalance: 0, programId: program.body.id });
    await eventually(
      () => harness.db.membership.findUniqueOrThrow({ where: { id: membership.body.id } }),
      (row) => row.creditsBalance === 5,
    );

    const reward = await createRecurringPrice(harness.db, merchant, storeA, 'Tasting kit', 1200, 'one_time');
    const token = await portalLogin(harness, storeA, email);
    const redeem = (quantity: number) =>
      portal(token, '/credits/redeem', { productId: reward.product.id, variantId: reward.variant.id, quantity });

    const first = await redeem(2);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ balance: 3, status: 'paid', redirectUrl: null });
    const order = await harness.db.order.findUniqueOrThrow({
      where: { id: first.body.orderId },
      include: { items: true },
    });
    expect(order).toMatchObject({ status: 'paid', totalAmount: 0, subtotal: 2400 });
    expect(order.items[0]).toMatchObject({ productName: 'Tasting kit', quantity: 2 });

    const tooMany = await redeem(4);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe('INSUFFICIENT_CREDITS');

    const answers = await Promise.all(Array.from({ length: 6 }, () => redeem(1)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
    const after = await harness.db.membership.findUniqueOrThrow({ where: { id: membership.body.id } });
    expect(after.creditsBalance).toBe(0);
    expect(after.savedToDate).toBe(5 * 1200);
    expect(await harness.db.creditRedemption.count({ where: { membershipId: membership.body.id } })).toBe(4);
  });
});
