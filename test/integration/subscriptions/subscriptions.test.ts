import { createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useSubscriber } from '../../helpers/fixtures/subscriptions';
import { useHarness } from '../../helpers/useHarness';
import { createCard, createRecurringPrice, decliningCard, eventually, testVaultEnv } from './subscriptionsFixtures';

describe('subscriptions public API', () => {
  const harness = useHarness(testVaultEnv);
  const sub = useSubscriber(harness, { price: 'Monthly beans', unitAmount: 1500, email: 'subs@example.com' });
  let oneTime: Awaited<ReturnType<typeof createRecurringPrice>>;

  beforeAll(async () => {
    oneTime = await createRecurringPrice(harness.db, sub.merchant, sub.storeId, 'Mug', 900, 'one_time');
  });

  const create = (body: Record<string, unknown>, token = sub.merchant.token) =>
    call(harness, 'POST', '/api/public/v1/subscriptions', {
      token,
      body: {
        storeId: sub.storeId,
        customerId: sub.customerId,
        paymentMethodId: sub.cardId,
        priceId: sub.plan.price.id,
        ...body,
      },
    });
  const get = (id: string) => call(harness, 'GET', `/api/public/v1/subscriptions/${id}`, { token: sub.merchant.token });

  it('creates an active subscription that charges its first period and records the order', async () => {
    const created = await create({ quantity: 2 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'active',
      optionId: sub.plan.price.id,
      price: 3000,
      quantity: 2,
      currency: 'USD',
      interval: 'month',
      paidOrdersCount: 0,
    });
    const paid = await eventually(
      () => get(created.body.id),
      (answer) => answer.body.paidOrdersCount === 1,
    );
    const started = Date.parse(paid.body.startedAt);
    expect(new Date(Date.parse(paid.body.nextBillingAt)).getUTCMonth()).toBe(
      (new Date(started).getUTCMonth() + 1) % 12,
    );
    const orders = await harness.db.order.findMany({ where: { source: `subscription:${created.body.id}` } });
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', totalAmount: 3000, currency: 'USD', customerId: sub.customerId });
    // The line is what was sold: 2 × 1500, not 1 × 3000.
    const [line] = await harness.db.orderItem.findMany({ where: { orderId: orders[0]!.id } });
    expect(line).toMatchObject({ quantity: 2, unitAmount: 1500, totalAmount: 3000, priceId: sub.plan.price.id });
    const events = await harness.db.event.findMany({
      where: { accountId: sub.merchant.accountId, properties: { path: ['subscriptionId'], equals: created.body.id } },
      orderBy: { createdAt: 'asc' },
    });
    expect(events.map((event) => event.eventType)).toEqual([
      's_subscription_created',
      's_subscription_renewed',
      's_order_paid',
    ]);
  });

  it('starts a trial without charging, and refuses bad input with 4xx and nothing written', async () => {
    const trial = await create({ trialDays: 14 });
    expect(trial.status).toBe(201);
    expect(trial.body.status).toBe('trialing');
    expect(Date.parse(trial.body.trialEndsAt) - Date.parse(trial.body.startedAt)).toBe(14 * 86_400_000);
    expect(trial.body.nextBillingAt).toBe(trial.body.trialEndsAt);

    const before = await harness.db.subscription.count({ where: { accountId: sub.merchant.accountId } });
    expect((await create({ priceId: oneTime.price.id })).body.code).toBe('PRICE_NOT_RECURRING');
    expect((await create({ paymentMethodId: 'pi_unknown' })).status).toBe(404);
    expect((await create({ quantity: 0 })).status).toBe(400);
    expect((await create({ surprise: true })).status).toBe(400);
    expect(await harness.db.subscription.count({ where: { accountId: sub.merchant.accountId } })).toBe(before);

    // Test-mode data is invisible to a live key.
    const live = await createMerchant(harness.db, { mode: 'live' });
    const refused = await call(harness, 'POST', '/api/public/v1/subscriptions', {
      token: live.token,
      body: {
        storeId: sub.storeId,
        customerId: sub.customerId,
        paymentMethodId: sub.cardId,
        priceId: sub.plan.price.id,
      },
    });
    expect(refused.status).toBe(404);
  });

  it('pauses, resumes, skips the next date and cancels through the workflow; refuses invalid moves with 409', async () => {
    const created = await create({ trialDays: 30 });
    const id = created.body.id as string;
    const skipped = await call(harness, 'POST', `/api/public/v1/subscriptions/${id}/skip-next`, {
      token: sub.merchant.token,
      body: {},
    });
    expect(skipped.status).toBe(200);
    expect(skipped.body.skippedDates).toEqual([created.body.nextBillingAt]);
    expect(Date.parse(skipped.body.nextBillingAt)).toBeGreaterThan(Date.parse(created.body.nextBillingAt));

    const until = new Date(Date.now() + 60 * 86_400_000).toISOString();
    const paused = await call(harness, 'POST', `/api/public/v1/subscriptions/${id}/pause`, {
      token: sub.merchant.token,
      body: { until },
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', pausedUntil: until });
    const pausedAgain = await call(harness, 'POST', `/api/public/v1/subscriptions/${id}/pause`, {
      token: sub.merchant.token,
      body: { until },
    });
    expect(pausedAgain.status).toBe(409);
    expect(pausedAgain.body.code).toBe('INVALID_SUBSCRIPTION_TRANSITION');

    const resumed = await call(harness, 'POST', `/api/public/v1/subscriptions/${id}/resume`, {
      token: sub.merchant.token,
      body: {},
    });
    expect(resumed.body).toMatchObject({ status: 'active', pausedUntil: null });

    const atEnd = await call(harness, 'POST', `/api/public/v1/subscriptions/${id}/cancel`, {
      token: sub.merchant.token,
      body: { atPeriodEnd: true },
    });
    expect(atEnd.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    const now = await call(harness, 'POST', `/api/public/v1/subscriptions/${id}/cancel`, {
      token: sub.merchant.token,
      body: { cancelReasonId: 'too_expensive' },
    });
    expect(now.body).toMatchObject({ status: 'canceled', cancelReasonId: 'too_expensive', nextBillingAt: null });
    expect(
      (
        await call(harness, 'POST', `/api/public/v1/subscriptions/${id}/resume`, {
          token: sub.merchant.token,
          body: {},
        })
      ).status,
    ).toBe(409);
  });

  it('lists with simple pagination and hides other accounts and modes', async () => {
    const page1 = await call(harness, 'POST', '/api/public/v1/subscriptions/list', {
      token: sub.merchant.token,
      body: { page: 1, per_page: 2, sort: 'createdAt', sort_order: 'asc' },
    });
    expect(page1.status).toBe(200);
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.total).toBeGreaterThanOrEqual(3);
    const page2 = await call(harness, 'POST', '/api/public/v1/subscriptions/list', {
      token: sub.merchant.token,
      body: { page: 2, per_page: 2, sort: 'createdAt', sort_order: 'asc' },
    });
    expect(page2.body.data[0].id).not.toBe(page1.body.data[1].id);
    expect(Date.parse(page2.body.data[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(page1.body.data[1].createdAt));
    expect(page1.body).toMatchObject({ page: 1, per_page: 2, total_pages: Math.ceil(page1.body.total / 2) });

    const list = (body: Record<string, unknown>) =>
      call(harness, 'POST', '/api/public/v1/subscriptions/list', {
        token: sub.merchant.token,
        body: { per_page: 100, ...body },
      });
    const newestFirst = await list({ sort: 'createdAt', sort_order: 'desc' });
    const created = newestFirst.body.data.map((row: { createdAt: string }) => Date.parse(row.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(newestFirst.body.data[0].id).not.toBe(page1.body.data[0].id);
    for (const sort_order of ['asc', 'desc'] as const) {
      const byPrice = await list({ sort: 'price', sort_order });
      const prices = byPrice.body.data.map((row: { price: number }) => row.price);
      expect(new Set(prices).size).toBeGreaterThan(1);
      expect(prices).toEqual([...prices].sort((a, b) => (sort_order === 'asc' ? a - b : b - a)));
    }
    const pastTheEnd = await list({ page: 50, per_page: 2 });
    expect(pastTheEnd.body).toMatchObject({
      data: [],
      page: 50,
      total: page1.body.total,
      total_pages: Math.ceil(page1.body.total / 2),
    });

    const canceled = await call(harness, 'POST', '/api/public/v1/subscriptions/list', {
      token: sub.merchant.token,
      body: { filters: { status: ['canceled'] } },
    });
    expect(canceled.body.data.every((row: { status: string }) => row.status === 'canceled')).toBe(true);
    expect(
      (
        await call(harness, 'POST', '/api/public/v1/subscriptions/list', {
          token: sub.merchant.token,
          body: { sort: 'secret' },
        })
      ).status,
    ).toBe(400);

    const other = await createMerchant(harness.db);
    const hidden = await call(harness, 'GET', `/api/public/v1/subscriptions/${page1.body.data[0].id}`, {
      token: other.token,
    });
    expect(hidden.status).toBe(404);
    expect(
      (await call(harness, 'POST', '/api/public/v1/subscriptions/list', { token: other.token, body: {} })).body.total,
    ).toBe(0);
  });

  it('keeps membership dates: trialEndsAt on a trial, graceEndsAt = first failure + 14 days, renewsAt null and canceledAt on cancel', async () => {
    const clubPrice = await createRecurringPrice(harness.db, sub.merchant, sub.storeId, 'Dates club', 2000);
    const program = await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: sub.merchant.token,
      body: { storeId: sub.storeId, name: 'Dates club', optionId: clubPrice.price.id, creditsPerRenewal: 3 },
    });
    const trial = await call(harness, 'POST', '/api/public/v1/memberships', {
      token: sub.merchant.token,
      body: { programId: program.body.id, customerId: sub.customerId, paymentMethodId: sub.cardId, trialDays: 7 },
    });
    expect(trial.status).toBe(201);
    expect(trial.body).toMatchObject({ status: 'trialing', graceEndsAt: null, canceledAt: null, creditsBalance: 0 });
    expect(Date.parse(trial.body.trialEndsAt) - Date.parse(trial.body.startedAt)).toBe(7 * 86_400_000);
    expect(trial.body.renewsAt).toBe(trial.body.trialEndsAt);

    const canceled = await call(harness, 'POST', `/api/public/v1/subscriptions/${trial.body.subscriptionId}/cancel`, {
      token: sub.merchant.token,
      body: {},
    });
    expect(canceled.body.status).toBe('canceled');
    const afterCancel = await call(harness, 'GET', `/api/public/v1/memberships/${trial.body.id}`, {
      token: sub.merchant.token,
    });
    expect(afterCancel.body).toMatchObject({
      status: 'canceled',
      renewsAt: null,
      canceledAt: canceled.body.canceledAt,
      trialEndsAt: trial.body.trialEndsAt,
    });
    expect(afterCancel.body.canceledAt).not.toBeNull();

    const declining = await createCard(harness.db, harness.config, sub.merchant, sub.customerId, decliningCard);
    const failing = await call(harness, 'POST', '/api/public/v1/memberships', {
      token: sub.merchant.token,
      body: { programId: program.body.id, customerId: sub.customerId, paymentMethodId: declining.id },
    });
    const pastDue = await eventually(
      () => call(harness, 'GET', `/api/public/v1/memberships/${failing.body.id}`, { token: sub.merchant.token }),
      (answer) => answer.body.status === 'past_due',
    );
    const subscription = await get(failing.body.subscriptionId);
    expect(subscription.body.lastPaymentFailedAt).not.toBeNull();
    expect(Date.parse(pastDue.body.graceEndsAt)).toBe(
      Date.parse(subscription.body.lastPaymentFailedAt) + 14 * 86_400_000,
    );
    expect(pastDue.body.creditsBalance).toBe(0);
  });

  it('documents every subscription, membership and portal route in /openapi.json', async () => {
    const doc = await call(harness, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.body.paths);
    for (const path of [
      '/api/public/v1/subscriptions',
      '/api/public/v1/subscriptions/list',
      '/api/public/v1/subscriptions/{subscriptionId}',
      '/api/public/v1/subscriptions/{subscriptionId}/cancel',
      '/api/public/v1/subscriptions/{subscriptionId}/pause',
      '/api/public/v1/subscriptions/{subscriptionId}/resume',
      '/api/public/v1/subscriptions/{subscriptionId}/skip-next',
      '/api/public/v1/membership-programs',
      '/api/public/v1/memberships',
      '/api/public/v1/portal/offer-links',
      '/api/v1/cms/session/login',
      '/api/v1/cms/session/confirm',
      '/api/v1/cms/session/logout',
      '/api/v1/cms/session/offer',
      '/api/v1/portal/switch',
      '/api/v1/portal/credits/redeem',
      '/api/v1/portal/payment-methods/default',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
