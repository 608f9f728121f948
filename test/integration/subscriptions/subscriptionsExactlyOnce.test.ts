import { call } from '../../helpers/harness';
import { useSubscriber } from '../../helpers/fixtures/subscriptions';
import { useHarness } from '../../helpers/useHarness';
import { eventually, testVaultEnv, untilSubscriptionAsleep } from './subscriptionsFixtures';

/**
 * Subscription changes through the public API under a burst of identical requests. "Identical"
 * means the same Idempotency-Key (any operation: the first answer is replayed), or for skip-next
 * the same named `date` (the workflow refuses a date it has skipped already).
 */
describe('subscription changes under a burst of identical requests', () => {
  const burst = 10;
  const harness = useHarness(testVaultEnv);
  const sub = useSubscriber(harness, {
    price: 'Monthly beans',
    unitAmount: 1500,
    email: `burst-subs-${Date.now()}@example.com`,
  });

  const all = <T>(make: () => Promise<T>) => Promise.all(Array.from({ length: burst }, make));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(harness, 'POST', `/api/public/v1${path}`, { token: sub.merchant.token, body, headers });
  async function paidSubscription() {
    const created = await post('/subscriptions', {
      storeId: sub.storeId,
      customerId: sub.customerId,
      priceId: sub.priceId,
      paymentMethodId: sub.cardId,
    });
    expect(created.status).toBe(201);
    const row = await eventually(
      () => harness.db.subscription.findUniqueOrThrow({ where: { id: created.body.id } }),
      (row) => row.paidOrdersCount === 1,
    );
    await untilSubscriptionAsleep(harness, row.id);
    return row;
  }
  const eventsOf = (subscriptionId: string, eventType: string) =>
    harness.db.event.findMany({
      where: {
        accountId: sub.merchant.accountId,
        eventType,
        properties: { path: ['subscriptionId'], equals: subscriptionId },
      },
    });

  it(`${burst} skips naming the same date skip it once; the rest are 409 DATE_ALREADY_SKIPPED`, async () => {
    const subscription = await paidSubscription();
    const date = subscription.nextBillingAt!.toISOString();
    const answers = await all(() => post(`/subscriptions/${subscription.id}/skip-next`, { date }));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => [answer.status, answer.body.code])).toEqual(
      Array(burst - 1).fill([409, 'DATE_ALREADY_SKIPPED']),
    );
    const after = await harness.db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(after.skippedDates.map((skipped) => skipped.toISOString())).toEqual([date]);
    expect(after.nextBillingAt!.getTime()).toBeGreaterThan(subscription.nextBillingAt!.getTime());
    expect(
      (await eventsOf(subscription.id, 's_subscription_updated')).filter(
        (event) => (event.properties as { change?: string }).change === 'date_skipped',
      ),
    ).toHaveLength(1);

    // A date that is not the next one is a bad request, not a skip of something else.
    const notNext = await post(`/subscriptions/${subscription.id}/skip-next`, {
      date: new Date(after.nextBillingAt!.getTime() + 86_400_000).toISOString(),
    });
    expect(notNext.status).toBe(400);
  });

  it(`${burst} skips with one Idempotency-Key skip one date and answer alike`, async () => {
    const subscription = await paidSubscription();
    const answers = await all(() =>
      post(`/subscriptions/${subscription.id}/skip-next`, {}, { 'idempotency-key': `skip-${subscription.id}` }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(
      (await harness.db.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).skippedDates,
    ).toHaveLength(1);
  });

  it(`${burst} cancels at period end record and announce one cancellation; ${burst} cancels now end it once`, async () => {
    const atEnd = await paidSubscription();
    const answers = await all(() => post(`/subscriptions/${atEnd.id}/cancel`, { atPeriodEnd: true }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    for (const answer of answers) expect(answer.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await eventsOf(atEnd.id, 's_subscription_cancelled')).toHaveLength(1);

    const now = await paidSubscription();
    const ended = await all(() => post(`/subscriptions/${now.id}/cancel`, { atPeriodEnd: false }));
    expect(ended.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of ended.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(['INVALID_SUBSCRIPTION_TRANSITION', 'SUBSCRIPTION_NOT_RUNNING']).toContain(answer.body.code);
    }
    expect((await harness.db.subscription.findUniqueOrThrow({ where: { id: now.id } })).status).toBe('canceled');
    expect(await eventsOf(now.id, 's_subscription_cancelled')).toHaveLength(1);
  });
});
