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

/** Portal switches: a subscription (paid, declined, downgrade) and a membership (credits, 3DS). */
describe('customer portal: switching options', () => {
  const world = usePortalWorld();

  it('switches a subscription now (paid, with proration), and a declined switch leaves the old option', async () => {
    const { harness, merchant, storeA, basic, pro, customerId, badCardId, email, portal, subscribe } = world;
    const token = await portalLogin(harness, storeA, email);
    const subscription = await subscribe(storeA, basic.price.id);

    const switched = await portal(token, '/switch', {
      target: { type: 'subscription', subscriptionId: subscription.id },
      optionId: pro.price.id,
    });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ status: 'paid', redirectUrl: null, membership: null });
    expect(switched.body.subscription).toMatchObject({
      id: subscription.id,
      optionId: pro.price.id,
      productId: pro.product.id,
      price: 3000,
      status: 'active',
      paidOrdersCount: 2,
    });
    // Switched moments after paying 1000 for the month: nearly all of it is credited.
    expect(switched.body.amountCharged).toBeGreaterThanOrEqual(2000);
    expect(switched.body.amountCharged).toBeLessThanOrEqual(2001);
    const order = await harness.db.order.findUniqueOrThrow({ where: { id: switched.body.orderId } });
    expect(order).toMatchObject({ status: 'paid', totalAmount: switched.body.amountCharged, customerId });

    // Make the declining card the default (and the subscription's card), then switch back: declined.
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: badCardId })).body).toEqual({
      ok: true,
    });
    await eventually(
      () => harness.temporal.workflow.getHandle(subscription.id).query(subscriptionStateQuery),
      (state) => state.paymentMethodId === badCardId,
    );
    const premium = await createRecurringPrice(harness.db, merchant, storeA, 'Premium box', 9000);
    const declined = await portal(token, '/switch', {
      target: { type: 'subscription', subscriptionId: subscription.id },
      optionId: premium.price.id,
    });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 'declined', orderId: null, declineCode: 'card_declined' });
    expect(declined.body.subscription).toMatchObject({
      optionId: pro.price.id,
      price: 3000,
      paidOrdersCount: 2,
      status: 'active',
    });
    const state = await harness.temporal.workflow.getHandle(subscription.id).query(subscriptionStateQuery);
    expect(state).toMatchObject({ optionId: pro.price.id, price: 3000, status: 'active' });
    expect(await harness.db.order.count({ where: { source: `subscription:${subscription.id}` } })).toBe(2);

    // A downgrade right after paying costs nothing now: the unused credit covers the cheaper option.
    const downgrade = await portal(token, '/switch', {
      target: { type: 'subscription', subscriptionId: subscription.id },
      optionId: basic.price.id,
    });
    expect(downgrade.body).toMatchObject({ status: 'paid', amountCharged: 0 });
    expect(downgrade.body.subscription).toMatchObject({ optionId: basic.price.id, price: 1000 });
  });

  it('switches the membership to another program (credits follow the new program) and answers requires_action for a 3DS card', async () => {
    const { harness, merchant, storeA, pro, portal } = world;
    const clubPrice = await createRecurringPrice(harness.db, merchant, storeA, 'Club basic', 1500);
    const clubPlusPrice = await createRecurringPrice(harness.db, merchant, storeA, 'Club plus', 4500);
    const basicProgram = await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: merchant.token,
      body: { storeId: storeA, name: 'Club basic', optionId: clubPrice.price.id, creditsPerRenewal: 2 },
    });
    const plusProgram = await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: merchant.token,
      body: { storeId: storeA, name: 'Club plus', optionId: clubPlusPrice.price.id, creditsPerRenewal: 10 },
    });
    // A price belongs to one program: a renewal must never find another program on it.
    const samePrice = await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: merchant.token,
      body: { storeId: storeA, name: 'Club clone', optionId: clubPrice.price.id, creditsPerRenewal: 99 },
    });
    expect(samePrice.status).toBe(409);
    expect(samePrice.body.code).toBe('PROGRAM_OPTION_TAKEN');
    const member = await createCustomer(harness.db, merchant, `member-${Date.now()}@example.com`);
    const memberCard = await createCard(harness.db, harness.config, merchant, member.id, goodCard);
    const membership = await call(harness, 'POST', '/api/public/v1/memberships', {
      token: merchant.token,
      body: { programId: basicProgram.body.id, customerId: member.id, paymentMethodId: memberCard.id },
    });
    await eventually(
      () => harness.db.membership.findUniqueOrThrow({ where: { id: membership.body.id } }),
      (row) => row.creditsBalance === 2,
    );

    const token = await portalLogin(harness, storeA, member.email);
    const switched = await portal(token, '/switch', {
      target: { type: 'membership', membershipId: membership.body.id },
      optionId: clubPlusPrice.price.id,
    });
    expect(switched.status).toBe(200);
    expect(switched.body.status).toBe('paid');
    expect(switched.body.membership).toMatchObject({
      id: membership.body.id,
      programId: plusProgram.body.id,
      creditsBalance: 12,
    });
    expect(switched.body.subscription).toMatchObject({ optionId: clubPlusPrice.price.id, price: 4500 });
    // An option that is not a program of the store is refused for a membership.
    expect(
      (
        await portal(token, '/switch', {
          target: { type: 'membership', membershipId: membership.body.id },
          optionId: pro.price.id,
        })
      ).status,
    ).toBe(404);

    // A card that needs a 3DS challenge: the switch answers requires_action with a redirect and changes nothing.
    const challengeCard = await createCard(harness.db, harness.config, merchant, member.id, '4000000000003220');
    const storeRow = await harness.db.store.findUniqueOrThrow({ where: { id: storeA } });
    const flow = await harness.db.paymentFlow.update({
      where: { id: storeRow.defaultPaymentFlowId! },
      data: { threeDsEnabled: true },
    });
    await harness.db.processor.updateMany({
      where: { id: { in: (flow.processorConfigs as { processorId: string }[]).map((config) => config.processorId) } },
      data: { enable3DS: true },
    });
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: challengeCard.id })).status).toBe(200);
    await eventually(
      () => harness.temporal.workflow.getHandle(membership.body.subscriptionId).query(subscriptionStateQuery),
      (state) => state.paymentMethodId === challengeCard.id,
    );
    const premium = await createRecurringPrice(harness.db, merchant, storeA, 'Club max', 20000);
    await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: merchant.token,
      body: { storeId: storeA, name: 'Club max', optionId: premium.price.id, creditsPerRenewal: 50 },
    });
    const challenged = await portal(token, '/switch', {
      target: { type: 'membership', membershipId: membership.body.id },
      optionId: premium.price.id,
    });
    expect(challenged.body).toMatchObject({ status: 'requires_action', orderId: null });
    expect(challenged.body.redirectUrl).toMatch(/^http/);
    expect(challenged.body.membership).toMatchObject({ programId: plusProgram.body.id, creditsBalance: 12 });
  });
});
