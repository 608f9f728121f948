import { randomUUID } from 'node:crypto';
import { createSubscriptionActivities } from '../../../activities/subscriptions/state';
import { createOrder } from '../../../src/commerce/orders';
import { call, type ApiAnswer } from '../../helpers/harness';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  eventually,
  goodCard,
  portalLogin,
} from '../subscriptions/subscriptionsFixtures';
import { usePortalWorld } from './portalWorld';
import { until } from '../../helpers/until';
import { subscriptionStateQuery } from '../../../workflows/subscriptions/messages';

const hour = 3600_000;

/**
 * The customer's own views (GET /api/v1/portal/me, orders, subscriptions, memberships,
 * payment-methods): the session's customer in the session's store only, paged, newest first.
 */
describe('portal: the customer sees what they own', () => {
  const world = usePortalWorld();
  let token: string;
  let subA: { id: string };
  let subB: { id: string };
  let clubSubscriptionId: string;
  let membershipId: string;
  let programId: string;
  let other: { customerId: string; subscriptionId: string; orderId: string };
  /** The customer's store-A orders, newest first. */
  let ordersA: string[];

  const get = (path: string, headers: Record<string, string> = { 'x-cms-token': token }): Promise<ApiAnswer> =>
    call(world.harness, 'GET', `/api/v1/portal${path}`, { headers });
  /**
   * The subscription's card once its workflow and its row agree, else undefined. The route writes the row
   * at once and then signals; the workflow persists each change in order, so a persist of an older card
   * can land on the row after the route's write. The state read first holding a card means every earlier
   * change is persisted; the row then holding the same card means only that card is left to be written.
   */
  const settledCardOf = async (subscriptionId: string) => {
    const state = await world.harness.temporal.workflow.getHandle(subscriptionId).query(subscriptionStateQuery);
    const row = await world.harness.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
    return state.paymentMethodId === row.paymentMethodId ? row.paymentMethodId : undefined;
  };

  beforeAll(async () => {
    const { harness, merchant, storeA, storeB } = world;
    subA = await world.subscribe(storeA, world.basic.price.id);
    const priceB = await createRecurringPrice(harness.db, merchant, storeB, 'B box', 500);
    subB = await world.subscribe(storeB, priceB.price.id);

    // A membership in store A (its own backing subscription, the newest).
    const clubPrice = await createRecurringPrice(harness.db, merchant, storeA, 'Club', 2000);
    const program = await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: merchant.token,
      body: { storeId: storeA, name: 'Coffee Club', optionId: clubPrice.price.id, creditsPerRenewal: 5 },
    });
    expect(program.status).toBe(201);
    programId = program.body.id;
    const enrolled = await call(harness, 'POST', '/api/public/v1/memberships', {
      token: merchant.token,
      body: { programId: program.body.id, customerId: world.customerId, paymentMethodId: world.goodCardId },
    });
    expect(enrolled.status).toBe(201);
    membershipId = enrolled.body.id;
    clubSubscriptionId = enrolled.body.subscriptionId;
    await eventually(
      () => harness.db.membership.findUniqueOrThrow({ where: { id: membershipId } }),
      (row) => row.creditsBalance === 5,
    );

    // Another customer of the same store, with a subscription and an order of their own.
    const otherEmail = `other-${Date.now()}@example.com`;
    const otherCustomer = await createCustomer(harness.db, merchant, otherEmail);
    const otherCard = await createCard(harness.db, harness.config, merchant, otherCustomer.id, goodCard);
    const otherSub = await call(harness, 'POST', '/api/public/v1/subscriptions', {
      token: merchant.token,
      body: {
        storeId: storeA,
        customerId: otherCustomer.id,
        priceId: world.basic.price.id,
        paymentMethodId: otherCard.id,
      },
    });
    expect(otherSub.status).toBe(201);
    const otherOrder = await eventually(
      () => harness.db.order.findFirst({ where: { customerId: otherCustomer.id } }),
      (row) => row !== null,
    );
    other = { customerId: otherCustomer.id, subscriptionId: otherSub.body.id, orderId: otherOrder!.id };

    // Three older store-A orders of the customer, an hour apart, with two lines each.
    for (const hoursAgo of [3, 2, 1]) {
      const order = await createOrder(harness.db, {
        accountId: merchant.accountId,
        mode: merchant.mode,
        storeId: storeA,
        customerId: world.customerId,
        currency: 'USD',
        items: [
          { productName: `Mug ${hoursAgo}`, quantity: 2, unitAmount: 750, productId: world.basic.product.id },
          { productName: 'Beans', quantity: 1, unitAmount: 1200 },
        ],
      });
      await harness.db.order.update({
        where: { id: order.id },
        data: { createdAt: new Date(Date.now() - hoursAgo * hour) },
      });
    }
    ordersA = (
      await harness.db.order.findMany({
        where: { customerId: world.customerId, storeId: storeA },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      })
    ).map((order) => order.id);
    expect(ordersA).toHaveLength(5); // basic's first charge, the club's first charge, three older ones

    token = await portalLogin(harness, storeA, world.email);
  });

  it('every view answers 401 without a token, or with one that is not a session', async () => {
    for (const path of ['/me', '/orders', '/subscriptions', '/memberships', '/payment-methods']) {
      for (const headers of [{}, { 'x-cms-token': 'cms_notatoken' }] as Record<string, string>[]) {
        const answer = await get(path, headers);
        expect([path, answer.status]).toEqual([path, 401]);
        expect(answer.body).toMatchObject({ code: 'NOT_AUTHORIZED', message: expect.any(String) });
      }
    }
  });

  it('me: the signed-in customer in the session store, with their default card once set', async () => {
    const me = await get('/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: world.customerId,
      storeId: world.storeA,
      email: world.email,
      firstName: null,
      lastName: null,
      name: null,
      phone: null,
      defaultPaymentMethodId: null,
      createdAt: expect.any(String),
    });
    const set = await world.portal(token, '/payment-methods/default', { paymentMethodId: world.goodCardId });
    expect(set.status).toBe(200);
    expect((await get('/me')).body.defaultPaymentMethodId).toBe(world.goodCardId);
  });

  it('payment methods: brand, last 4, expiry and which is the default; never the number', async () => {
    await world.portal(token, '/payment-methods/default', { paymentMethodId: world.badCardId });
    const cards = await get('/payment-methods');
    expect(cards.status).toBe(200);
    expect(cards.body.pagination).toEqual({ page: 1, pageSize: 20, totalCount: 2, totalPages: 1 });
    // Newest first: the declining card was made after the good one.
    expect(cards.body.data).toEqual([
      {
        id: world.badCardId,
        brand: 'visa',
        last4: '0002',
        expMonth: 12,
        expYear: 2035,
        isDefault: true,
        createdAt: expect.any(String),
      },
      {
        id: world.goodCardId,
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: 2035,
        isDefault: false,
        createdAt: expect.any(String),
      },
    ]);
    const text = JSON.stringify(cards.body);
    expect(text).not.toContain('424242');
    expect(text).not.toContain('400000');
    // Let the declining card reach the subscription before switching back, so the next test's wait for
    // the good card cannot be met by the state from before both changes.
    await until(async () => ((await settledCardOf(subA.id)) === world.badCardId ? true : undefined));
    await world.portal(token, '/payment-methods/default', { paymentMethodId: world.goodCardId });
  });

  it("subscriptions: the session store's only, newest first, with option, product title, price and current period", async () => {
    // The default card set by the previous test reaches the subscription's row at once and its workflow
    // when it takes the signal, after the change before it: wait until both hold it.
    await until(async () => ((await settledCardOf(subA.id)) === world.goodCardId ? true : undefined));
    const answer = await get('/subscriptions');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((row: { id: string }) => row.id)).toEqual([clubSubscriptionId, subA.id]);
    expect(answer.body.data.map((row: { id: string }) => row.id)).not.toContain(subB.id);
    const row = await world.harness.db.subscription.findUniqueOrThrow({ where: { id: subA.id } });
    const basic = answer.body.data[1];
    expect(basic).toEqual({
      id: subA.id,
      status: 'active',
      optionId: world.basic.price.id,
      productId: world.basic.product.id,
      productTitle: 'Basic box',
      variantId: world.basic.variant.id,
      variantName: 'default',
      membershipId: null,
      quantity: 1,
      price: 1000,
      currency: 'USD',
      interval: 'month',
      intervalCount: 1,
      // No trial: the first period began when it was created (the anchor), and ends at the next date.
      currentPeriodStart: row.billingAnchorAt.toISOString(),
      currentPeriodEnd: row.nextBillingAt!.toISOString(),
      cancelAtPeriodEnd: false,
      nextBillingAt: row.nextBillingAt!.toISOString(),
      trialEnd: null,
      pausedUntil: null,
      canceledAt: null,
      startedAt: row.startedAt.toISOString(),
      paymentMethodId: world.goodCardId,
    });
    expect(answer.body.data[0]).toMatchObject({ productTitle: 'Club', membershipId, price: 2000 });
  });

  it('memberships: program, status, credit balance and savings', async () => {
    const answer = await get('/memberships');
    expect(answer.status).toBe(200);
    expect(answer.body.pagination).toEqual({ page: 1, pageSize: 20, totalCount: 1, totalPages: 1 });
    expect(answer.body.data).toEqual([
      {
        id: membershipId,
        status: 'active',
        program: { id: programId, name: 'Coffee Club', creditsPerRenewal: 5 },
        subscriptionId: clubSubscriptionId,
        billing: 'monthly',
        creditsBalance: 5,
        savedToDate: 0,
        currency: 'USD',
        renewsAt: expect.any(String),
        cancelAtPeriodEnd: false,
        trialEndsAt: null,
        graceEndsAt: null,
        canceledAt: null,
        startedAt: expect.any(String),
      },
    ]);
  });

  it('orders: newest first, with their lines, paged; no other customer or store', async () => {
    const first = await get('/orders?pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, pageSize: 2, totalCount: 5, totalPages: 3 });
    expect(first.body.data.map((order: { id: string }) => order.id)).toEqual(ordersA.slice(0, 2));
    const last = await get('/orders?page=3&pageSize=2');
    expect(last.body.data.map((order: { id: string }) => order.id)).toEqual(ordersA.slice(4));
    expect(last.body.data[0]).toEqual({
      id: ordersA[4],
      status: 'paid',
      currency: 'USD',
      subtotal: 2700,
      discountTotal: 0,
      totalAmount: 2700,
      createdAt: expect.any(String),
      lines: [
        {
          id: expect.any(String),
          productId: world.basic.product.id,
          variantId: null,
          priceId: null,
          name: 'Mug 3',
          quantity: 2,
          unitAmount: 750,
          totalAmount: 1500,
        },
        {
          id: expect.any(String),
          productId: null,
          variantId: null,
          priceId: null,
          name: 'Beans',
          quantity: 1,
          unitAmount: 1200,
          totalAmount: 1200,
        },
      ],
    });
    const beyond = await get('/orders?page=4&pageSize=2');
    expect(beyond.body).toEqual({ data: [], pagination: { page: 4, pageSize: 2, totalCount: 5, totalPages: 3 } });
    const all = await get('/orders?pageSize=100');
    const ids = all.body.data.map((order: { id: string }) => order.id);
    expect(ids).toEqual(ordersA);
    expect(ids).not.toContain(other.orderId);
  });

  it.each([
    ['page 0', '/orders?page=0', 'page'],
    ['a page that is not a number', '/orders?page=two', 'page'],
    ['pageSize 0', '/subscriptions?pageSize=0', 'pageSize'],
    ['pageSize over 100', '/memberships?pageSize=101', 'pageSize'],
    ['a fractional page', '/payment-methods?page=1.5', 'page'],
    ['an unknown parameter', '/orders?sort=createdAt', 'sort'],
  ])('a list refuses %s with 400 naming it', async (_label, path, field) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
    expect(answer.body.message).toMatch(/^Invalid query: /);
    expect(answer.body.message).toContain(field);
  });

  it("another customer's subscription, one in another store and one that does not exist answer the same 404", async () => {
    const answers = [];
    for (const subscriptionId of [other.subscriptionId, subB.id, 'sub_doesnotexist0000']) {
      for (const path of ['/subscriptions/cancel', '/subscriptions/resume']) {
        answers.push(await world.portal(token, path, { subscriptionId }));
      }
    }
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    // Nothing changed for either of them.
    for (const id of [other.subscriptionId, subB.id]) {
      expect(await world.harness.db.subscription.findUniqueOrThrow({ where: { id } })).toMatchObject({
        status: 'active',
        cancelAtPeriodEnd: false,
      });
    }
  });

  it.each([
    ['a subscriptionId that is not a sub_ id', { subscriptionId: 'mem_123' }],
    ['no subscriptionId', { atPeriodEnd: true }],
    ['atPeriodEnd not a boolean', { subscriptionId: 'sub_abc', atPeriodEnd: 'yes' }],
    ['an unknown field', { subscriptionId: 'sub_abc', reason: 'too expensive' }],
  ])('cancel refuses %s with 400', async (_label, body) => {
    const answer = await world.portal(token, '/subscriptions/cancel', body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
  });

  it("an offer link's session cannot open the account (403), whatever it allows", async () => {
    const link = await call(world.harness, 'POST', '/api/public/v1/portal/offer-links', {
      token: world.merchant.token,
      body: { storeId: world.storeA, customerId: world.customerId, actions: ['switch'] },
    });
    expect(link.status).toBe(201);
    const offer = await call(world.harness, 'POST', '/api/v1/cms/session/offer', { body: { link: link.body.link } });
    expect(offer.status).toBe(200);
    const offerToken = offer.body.token as string;
    for (const path of ['/me', '/orders', '/subscriptions', '/memberships', '/payment-methods']) {
      const answer = await get(path, { 'x-cms-token': offerToken });
      expect([path, answer.status, answer.body.code]).toEqual([path, 403, 'ACTION_NOT_ALLOWED']);
    }
    const cancel = await world.portal(offerToken, '/subscriptions/cancel', { subscriptionId: subA.id });
    expect(cancel.status).toBe(403);

    // Authorize, then validate: a session without the right learns nothing from a bad query or body.
    const badQuery = await get('/orders?page=zero&pageSize=-1', { 'x-cms-token': offerToken });
    expect([badQuery.status, badQuery.body.code]).toEqual([403, 'ACTION_NOT_ALLOWED']);
    for (const path of [
      '/subscriptions/cancel',
      '/subscriptions/resume',
      '/credits/redeem',
      '/payment-methods/default',
    ]) {
      const answer = await world.portal(offerToken, path, { unexpected: true, subscriptionId: 42 });
      expect([path, answer.status, answer.body.code]).toEqual([path, 403, 'ACTION_NOT_ALLOWED']);
    }
    // The action the link allows gets past the check and is validated as usual.
    const allowed = await world.portal(offerToken, '/switch', { unexpected: true });
    expect([allowed.status, allowed.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('a default card changed twice at once: the row holds the last one from the answer on and the workflow ends on it', async () => {
    await until(async () => ((await settledCardOf(subA.id)) === world.goodCardId ? true : undefined));
    const first = await world.portal(token, '/payment-methods/default', { paymentMethodId: world.badCardId });
    const second = await world.portal(token, '/payment-methods/default', { paymentMethodId: world.goodCardId });
    expect([first.status, second.status]).toEqual([200, 200]);
    // Until the workflow has taken both signals, every read of the row must show the card set last:
    // the workflow's save after the first signal must not put the declining card back.
    const seen = new Set<string | null>();
    await until(async () => {
      const row = await world.harness.db.subscription.findUniqueOrThrow({ where: { id: subA.id } });
      seen.add(row.paymentMethodId);
      const state = await world.harness.temporal.workflow.getHandle(subA.id).query(subscriptionStateQuery);
      return state.paymentMethodId === world.goodCardId ? true : undefined;
    });
    expect([...seen]).toEqual([world.goodCardId]);
    const answer = await get('/subscriptions');
    const basic = answer.body.data.find((row: { id: string }) => row.id === subA.id);
    expect(basic).toMatchObject({ paymentMethodId: world.goodCardId });

    // The workflow's save of a state holding another card leaves the row's card alone.
    const state = await world.harness.temporal.workflow.getHandle(subA.id).query(subscriptionStateQuery);
    await createSubscriptionActivities(world.harness).saveSubscriptionState({
      state: { ...state, paymentMethodId: world.badCardId },
      stateKey: randomUUID(),
      eventType: null,
      properties: {},
    });
    const row = await world.harness.db.subscription.findUniqueOrThrow({ where: { id: subA.id } });
    expect(row.paymentMethodId).toBe(world.goodCardId);
  });
});
