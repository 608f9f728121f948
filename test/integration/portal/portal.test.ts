import { newId } from '../../../src/domain/ids';
import { signOfferLink } from '../../../src/portal/offerLinks';
import { offerLinkSecret } from '../../../src/portal/tokens';
import { subscriptionStateQuery } from '../../../workflows/subscriptions/messages';
import { createMerchant, type Merchant } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  createStore,
  decliningCard,
  eventually,
  goodCard,
  portalLogin,
  testVaultEnv,
} from '../subscriptions/subscriptionsFixtures';

describe('customer portal', () => {
  let harness: Harness;
  let merchant: Merchant;
  let storeA: string;
  let storeB: string;
  let basic: Awaited<ReturnType<typeof createRecurringPrice>>;
  let pro: Awaited<ReturnType<typeof createRecurringPrice>>;
  let customerId: string;
  let goodCardId: string;
  let badCardId: string;
  const email = `portal-${Date.now()}@example.com`;

  beforeAll(async () => {
    harness = await startHarness(testVaultEnv);
    merchant = await createMerchant(harness.db);
    storeA = (await createStore(harness.db, merchant, 'Store A')).id;
    storeB = (await createStore(harness.db, merchant, 'Store B')).id;
    basic = await createRecurringPrice(harness.db, merchant, storeA, 'Basic box', 1000);
    pro = await createRecurringPrice(harness.db, merchant, storeA, 'Pro box', 3000);
    customerId = (await createCustomer(harness.db, merchant, email)).id;
    goodCardId = (await createCard(harness.db, harness.config, merchant, customerId, goodCard)).id;
    badCardId = (await createCard(harness.db, harness.config, merchant, customerId, decliningCard)).id;
  });
  afterAll(async () => {
    await harness?.stop();
  });

  const portal = (token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(harness, 'POST', `/api/v1/portal${path}`, { body, headers: { 'x-cms-token': token, ...headers } });
  const subscribe = async (storeId: string, priceId: string) => {
    const created = await call(harness, 'POST', '/api/public/v1/subscriptions', {
      token: merchant.token,
      body: { storeId, customerId, priceId, paymentMethodId: goodCardId },
    });
    expect(created.status).toBe(201);
    return eventually(
      () => harness.db.subscription.findUniqueOrThrow({ where: { id: created.body.id } }),
      (row) => row.paidOrdersCount === 1,
    );
  };

  it('logs in with a one-time code read from the sandbox outbox; wrong codes, logout and unknown e-mails are refused', async () => {
    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: storeA, email } });
    expect(login.status).toBe(200);
    const mailbox = (await (
      await fetch(`${harness.sandboxUrl}/outbox/messages?to=${encodeURIComponent(email)}`)
    ).json()) as any;
    const message = mailbox.data.find((m: { meta: { loginId: string } }) => m.meta.loginId === login.body.loginId);
    expect(message.text).toContain(message.meta.code);
    const wrongCode = message.meta.code === '000000' ? '111111' : '000000';
    expect(
      (
        await call(harness, 'POST', '/api/v1/cms/session/confirm', {
          body: { loginId: login.body.loginId, code: wrongCode },
        })
      ).status,
    ).toBe(401);
    const confirmed = await call(harness, 'POST', '/api/v1/cms/session/confirm', {
      body: { loginId: login.body.loginId, code: message.meta.code },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ kind: 'customer', emailVerified: true, customerId, storeId: storeA });
    // A code works once.
    expect(
      (
        await call(harness, 'POST', '/api/v1/cms/session/confirm', {
          body: { loginId: login.body.loginId, code: message.meta.code },
        })
      ).status,
    ).toBe(401);

    const token = confirmed.body.token as string;
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(200);
    expect(
      (await call(harness, 'POST', '/api/v1/cms/session/logout', { headers: { 'x-cms-token': token } })).status,
    ).toBe(200);
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(401);
    expect((await portal('cms_nonsense', '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(
      401,
    );
    expect((await call(harness, 'POST', '/api/v1/portal/switch', { body: {} })).status).toBe(401);

    const stranger = `nobody-${Date.now()}@example.com`;
    const unknown = await call(harness, 'POST', '/api/v1/cms/session/login', {
      body: { storeId: storeA, email: stranger },
    });
    expect(unknown.status).toBe(200);
    expect(
      ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${stranger}`)).json()) as any).data,
    ).toHaveLength(0);
  });

  it('refuses live-mode sign-in without SMTP instead of dropping the code into the sandbox outbox', async () => {
    const live = await createMerchant(harness.db, { mode: 'live' });
    const liveStore = await createStore(harness.db, live, 'Live Shop');
    const email = `live-${Date.now()}@example.com`;
    await harness.db.customer.create({
      data: { id: newId('customer'), accountId: live.accountId, mode: 'live', storeId: liveStore.id, email },
    });
    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: liveStore.id, email } });
    expect(login.status).toBe(503);
    expect(login.body.code).toBe('EMAIL_NOT_CONFIGURED');
    expect(
      ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${email}`)).json()) as any).data,
    ).toHaveLength(0);
    expect(await harness.db.portalLoginCode.count({ where: { email } })).toBe(0);
  });

  it('switches a subscription now (paid, with proration), and a declined switch leaves the old option', async () => {
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

  it('sets the default card on every live subscription; another customer’s card is 404', async () => {
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

  it('rejects a store A token on store B, and an offer-link session outside what its link allows', async () => {
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

  it('expires sessions and caps code guesses', async () => {
    const token = await portalLogin(harness, storeA, email);
    const session = await harness.db.portalSession.findFirstOrThrow({
      where: { customerId },
      orderBy: { createdAt: 'desc' },
    });
    await harness.db.portalSession.update({
      where: { id: session.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await portal(token, '/payment-methods/default', { paymentMethodId: goodCardId });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);

    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: storeA, email } });
    const mailbox = (await (
      await fetch(`${harness.sandboxUrl}/outbox/messages?to=${encodeURIComponent(email)}`)
    ).json()) as any;
    const code = mailbox.data.find((m: { meta: { loginId: string } }) => m.meta.loginId === login.body.loginId).meta
      .code as string;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(
        (
          await call(harness, 'POST', '/api/v1/cms/session/confirm', {
            body: { loginId: login.body.loginId, code: wrong },
          })
        ).status,
      ).toBe(401);
    }
    // Five wrong guesses burn the code: even the right one no longer works.
    expect(
      (await call(harness, 'POST', '/api/v1/cms/session/confirm', { body: { loginId: login.body.loginId, code } }))
        .status,
    ).toBe(401);
  });

  it('switches the membership to another program (credits follow the new program) and answers requires_action for a 3DS card', async () => {
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
