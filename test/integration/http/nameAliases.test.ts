import { call } from '../../helpers/harness';
import { createCard, createRecurringPrice, goodCard, portalLogin } from '../subscriptions/subscriptionsFixtures';
import { usePortalWorld } from '../portal/portalWorld';

/** One concept, two names in /openapi.json: each body takes the other spelling; two different values are a 400. */
describe('name aliases: paymentMethodId / paymentInstrumentId, intent / mode', () => {
  const world = usePortalWorld();
  const api = (path: string, body: unknown) =>
    call(world.harness, 'POST', `/api/public/v1${path}`, { token: world.merchant.token, body });
  const expectAliasConflict = (
    answer: { status: number; body: { code: string; issues: { path: string }[] } },
    path: string,
  ) => {
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
    expect(answer.body.issues.map((issue) => issue.path)).toContain(path);
  };

  it('subscriptions and memberships take paymentInstrumentId as paymentMethodId', async () => {
    const { storeA, basic, customerId, goodCardId, badCardId, harness, merchant } = world;
    const base = { storeId: storeA, customerId, priceId: basic.price.id, trialDays: 7 };
    const aliased = await api('/subscriptions', { ...base, paymentInstrumentId: goodCardId });
    expect(aliased.status).toBe(201);
    expect(aliased.body.paymentMethodId).toBe(goodCardId);
    const both = await api('/subscriptions', { ...base, paymentMethodId: goodCardId, paymentInstrumentId: goodCardId });
    expect(both.status).toBe(201);

    const before = await harness.db.subscription.count({ where: { accountId: merchant.accountId } });
    expectAliasConflict(
      await api('/subscriptions', { ...base, paymentMethodId: goodCardId, paymentInstrumentId: badCardId }),
      'paymentInstrumentId',
    );
    const neither = await api('/subscriptions', base);
    expect(neither.status).toBe(400);
    expect(neither.body.issues[0].message).toContain('paymentMethodId (or its alias paymentInstrumentId) is required');
    expect(await harness.db.subscription.count({ where: { accountId: merchant.accountId } })).toBe(before);

    const club = await createRecurringPrice(harness.db, merchant, storeA, 'Alias club', 1800);
    const program = await api('/membership-programs', {
      storeId: storeA,
      name: 'Alias club',
      optionId: club.price.id,
      creditsPerRenewal: 1,
    });
    const member = await api('/memberships', {
      programId: program.body.id,
      customerId,
      paymentInstrumentId: goodCardId,
      trialDays: 7,
    });
    expect(member.status).toBe(201);
    expect(member.body.paymentMethodId).toBe(goodCardId);
    expectAliasConflict(
      await api('/memberships', {
        programId: program.body.id,
        customerId,
        paymentMethodId: goodCardId,
        paymentInstrumentId: badCardId,
      }),
      'paymentInstrumentId',
    );
  });

  it('payments/process takes intent (mode still works) and paymentMethodId as paymentInstrumentId', async () => {
    const { storeA, customerId, goodCardId, badCardId, harness, merchant } = world;
    const base = { storeId: storeA, customerId, amount: 700, currency: 'USD' };
    const authorized = await api('/payments/process', { ...base, paymentMethodId: goodCardId, intent: 'auth' });
    expect(authorized.status).toBe(200);
    expect(authorized.body.payment.status).toBe('authorized');
    const paymentId = authorized.body.payment.id as string;
    expect((await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).paymentInstrumentId).toBe(
      goodCardId,
    );
    const captured = await api('/payments/process', { storeId: storeA, intent: 'capture', paymentId });
    expect(captured.status).toBe(200);
    expect(captured.body.payment.status).toBe('succeeded');

    const byMode = await api('/payments/process', { ...base, paymentInstrumentId: goodCardId, mode: 'auth' });
    expect(byMode.body.payment.status).toBe('authorized');
    const sameBoth = await api('/payments/process', {
      ...base,
      paymentInstrumentId: goodCardId,
      paymentMethodId: goodCardId,
      intent: 'purchase',
      mode: 'purchase',
    });
    expect(sameBoth.body.payment.status).toBe('succeeded');

    const before = await harness.db.payment.count({ where: { accountId: merchant.accountId } });
    expectAliasConflict(
      await api('/payments/process', { ...base, paymentInstrumentId: goodCardId, intent: 'purchase', mode: 'auth' }),
      'mode',
    );
    expectAliasConflict(
      await api('/payments/process', { ...base, paymentInstrumentId: goodCardId, paymentMethodId: badCardId }),
      'paymentMethodId',
    );
    const noCard = await api('/payments/process', { ...base, intent: 'auth' });
    expect(noCard.status).toBe(400);
    expect(noCard.body.issues[0].path).toBe('paymentInstrumentId');
    expect(noCard.body.issues[0].message).toContain(
      'paymentInstrumentId (or its alias paymentMethodId) is required for intent auth',
    );
    expect(await harness.db.payment.count({ where: { accountId: merchant.accountId } })).toBe(before);
  });

  it('pay-v2 takes paymentMethodId as paymentInstrumentId', async () => {
    const { storeA, customerId, goodCardId, badCardId, harness, merchant } = world;
    const mug = await createRecurringPrice(harness.db, merchant, storeA, 'Alias mug', 900, 'one_time');
    const session = async () =>
      (
        await api('/checkout-sessions', {
          storeId: storeA,
          customerId,
          lineItems: [{ priceId: mug.price.id, quantity: 1 }],
        })
      ).body.id as string;
    const conflicting = await api('/checkout/pay-v2', {
      checkoutSessionId: await session(),
      paymentInstrumentId: goodCardId,
      paymentMethodId: badCardId,
    });
    expectAliasConflict(conflicting, 'paymentMethodId');
    const paid = await api('/checkout/pay-v2', { checkoutSessionId: await session(), paymentMethodId: goodCardId });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.status).toBe('succeeded');
    expect(paid.body.order.totalAmount).toBe(900);
  });

  it('the portal default card takes paymentInstrumentId as paymentMethodId', async () => {
    const { harness, merchant, storeA, email, customerId, portal } = world;
    const token = await portalLogin(harness, storeA, email);
    const card = await createCard(harness.db, harness.config, merchant, customerId, goodCard);
    expect((await portal(token, '/payment-methods/default', { paymentInstrumentId: card.id })).body).toEqual({
      ok: true,
    });
    expect(
      (await harness.db.customerDefaultPaymentMethod.findUniqueOrThrow({ where: { customerId } })).paymentMethodId,
    ).toBe(card.id);
    expectAliasConflict(
      await portal(token, '/payment-methods/default', {
        paymentMethodId: card.id,
        paymentInstrumentId: world.goodCardId,
      }),
      'paymentInstrumentId',
    );
  });

  it('documents the aliases and intent in /openapi.json', async () => {
    const document = (await call(world.harness, 'GET', '/openapi.json')).body;
    const schemas = document.components.schemas;
    const process = schemas.ProcessPaymentRequest.properties;
    expect(process.intent.enum).toEqual(['purchase', 'auth', 'capture']);
    expect(process.mode.description).toContain('Older name of intent');
    expect(process.paymentMethodId.description).toContain('Alias of paymentInstrumentId');
    expect(schemas.CreateSubscriptionRequest.properties.paymentInstrumentId.description).toContain(
      'Alias of paymentMethodId',
    );
    expect(schemas.CreateMembershipRequest.properties.paymentInstrumentId.description).toContain(
      'Alias of paymentMethodId',
    );
    expect(schemas.PayV2Request.properties.paymentMethodId.description).toContain('Alias of paymentInstrumentId');
  });
});
