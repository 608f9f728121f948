import { signOfferLink } from '../../../src/portal/offerLinks';
import { offerLinkSecret } from '../../../src/portal/tokens';
import { subscriptionStateQuery } from '../../../workflows/subscriptions/messages';
import { call } from '../../helpers/harness';
import { createCard, createRecurringPrice, eventually, portalLogin } from '../subscriptions/subscriptionsFixtures';
import { usePortalWorld } from './portalWorld';

/** What a session may touch: its own store only, and an offer session only what its link allows. */
describe('customer portal: stores and offer links', () => {
  const world = usePortalWorld();

  it('rejects a store A token on store B, and an offer-link session outside what its link allows', async () => {
    const { harness, merchant, storeA, storeB, basic, customerId, goodCardId, email, portal, subscribe } = world;
    const tokenA = await portalLogin(harness, storeA, email);
    const basicB = await createRecurringPrice(harness.db, merchant, storeB, 'B box', 1000);
    const proB = await createRecurringPrice(harness.db, merchant, storeB, 'B pro', 2000);
    const onB = await subscribe(storeB, basicB.price.id);
    const cross = await portal(tokenA, '/switch', {
      target: { type: 'subscription', subscriptionId: onB.id },
      optionId: proB.price.id,
    });
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe('WRONG_STORE');
    expect(
      (await portal(tokenA, '/payment-methods/default', { paymentMethodId: goodCardId }, { 'x-store-id': storeB }))
        .status,
    ).toBe(403);
    expect((await harness.db.subscription.findUniqueOrThrow({ where: { id: onB.id } })).optionId).toBe(basicB.price.id);

    // No header at all: a store-A session re-cards store-A subscriptions only; store B keeps its card.
    const onA = await subscribe(storeA, basic.price.id);
    const cardForA = await createCard(harness.db, harness.config, merchant, customerId, '5555555555554444');
    expect((await portal(tokenA, '/payment-methods/default', { paymentMethodId: cardForA.id })).body).toEqual({
      ok: true,
    });
    expect((await harness.db.subscription.findUniqueOrThrow({ where: { id: onA.id } })).paymentMethodId).toBe(
      cardForA.id,
    );
    await eventually(
      () => harness.temporal.workflow.getHandle(onA.id).query(subscriptionStateQuery),
      (state) => state.paymentMethodId === cardForA.id,
    );
    expect((await harness.db.subscription.findUniqueOrThrow({ where: { id: onB.id } })).paymentMethodId).toBe(
      goodCardId,
    );
    expect((await harness.temporal.workflow.getHandle(onB.id).query(subscriptionStateQuery)).paymentMethodId).toBe(
      goodCardId,
    );

    const link = await call(harness, 'POST', '/api/public/v1/portal/offer-links', {
      token: merchant.token,
      body: { storeId: storeA, customerId, actions: ['payment-methods.default'] },
    });
    expect(link.status).toBe(201);
    const offer = await call(harness, 'POST', '/api/v1/cms/session/offer', { body: { link: link.body.link } });
    expect(offer.body).toMatchObject({
      kind: 'offer',
      emailVerified: false,
      allowedActions: ['payment-methods.default'],
    });
    expect((await portal(offer.body.token, '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(
      200,
    );
    const notAllowed = await portal(offer.body.token, '/credits/redeem', {
      productId: 'prod_x',
      variantId: 'var_x',
      quantity: 1,
    });
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.body.code).toBe('ACTION_NOT_ALLOWED');
    const tampered = `${link.body.link.slice(0, -2)}xx`;
    expect((await call(harness, 'POST', '/api/v1/cms/session/offer', { body: { link: tampered } })).status).toBe(401);
  });

  it('holds an offer session to its link: the switch target, the link expiry, and no session past it', async () => {
    const { harness, merchant, storeA, basic, pro, customerId, goodCardId, portal, subscribe } = world;
    const target = await subscribe(storeA, basic.price.id);
    const other = await subscribe(storeA, basic.price.id);
    const link = await call(harness, 'POST', '/api/public/v1/portal/offer-links', {
      token: merchant.token,
      body: { storeId: storeA, customerId, actions: ['switch'], targetId: target.id },
    });
    expect(link.status).toBe(201);
    const offer = await call(harness, 'POST', '/api/v1/cms/session/offer', { body: { link: link.body.link } });
    const offTarget = await portal(offer.body.token, '/switch', {
      target: { type: 'subscription', subscriptionId: other.id },
      optionId: pro.price.id,
    });
    expect(offTarget.status).toBe(403);
    expect(offTarget.body.code).toBe('ACTION_NOT_ALLOWED');
    expect((await harness.db.subscription.findUniqueOrThrow({ where: { id: other.id } })).optionId).toBe(
      basic.price.id,
    );
    const onTarget = await portal(offer.body.token, '/switch', {
      target: { type: 'subscription', subscriptionId: target.id },
      optionId: pro.price.id,
    });
    expect(onTarget.status).toBe(200);
    expect(onTarget.body).toMatchObject({ status: 'paid', subscription: { id: target.id, optionId: pro.price.id } });

    const signed = (expSeconds: number) =>
      signOfferLink(
        {
          accountId: merchant.accountId,
          mode: merchant.mode,
          storeId: storeA,
          customerId,
          actions: ['payment-methods.default'],
          targetId: null,
          exp: expSeconds,
        },
        offerLinkSecret(harness.config),
      );
    const nowSeconds = Math.floor(Date.now() / 1000);
    const expired = await call(harness, 'POST', '/api/v1/cms/session/offer', {
      body: { link: signed(nowSeconds - 5) },
    });
    expect(expired.status).toBe(401);

    // A link with seconds left opens a session that ends with the link, not a minute later.
    const exp = nowSeconds + 2;
    const short = await call(harness, 'POST', '/api/v1/cms/session/offer', { body: { link: signed(exp) } });
    expect(short.status).toBe(200);
    expect(Date.parse(short.body.expiresAt)).toBeLessThanOrEqual(exp * 1000);
    expect((await portal(short.body.token, '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 100));
    const afterLink = await portal(short.body.token, '/payment-methods/default', { paymentMethodId: goodCardId });
    expect(afterLink.status).toBe(401);
    expect(afterLink.body.message).toMatch(/expired/);
  });
});
