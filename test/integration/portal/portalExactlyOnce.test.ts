import { call, type ApiAnswer } from '../../helpers/harness';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  createStore,
  eventually,
  goodCard,
  portalLogin,
  testVaultEnv,
  untilSubscriptionAsleep,
} from '../subscriptions/subscriptionsFixtures';

/**
 * Exactly-once portal writes: a burst of identical requests (a double-click, a retrying client)
 * moves money or a counter once. Without a key the subscription workflow refuses the duplicates
 * (409); with one Idempotency-Key every answer is the first one, replayed.
 */
describe('portal writes under a burst of identical requests', () => {
  const burst = 10;
  const harness = useHarness(testVaultEnv);
  const merchant = useMerchant(harness);
  let store: Awaited<ReturnType<typeof createStore>>;
  let basic: Awaited<ReturnType<typeof createRecurringPrice>>;
  let pro: Awaited<ReturnType<typeof createRecurringPrice>>;

  beforeAll(async () => {
    store = await createStore(harness.db, merchant, 'Burst Shop');
    basic = await createRecurringPrice(harness.db, merchant, store.id, 'Basic box', 1000);
    pro = await createRecurringPrice(harness.db, merchant, store.id, 'Pro box', 3000);
  });

  /** A new customer with a card, a paid subscription on `priceId` and a verified portal session. */
  async function subscribedCustomer(priceId: string) {
    const email = `burst-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const customer = await createCustomer(harness.db, merchant, email);
    const card = await createCard(harness.db, harness.config, merchant, customer.id, goodCard);
    const created = await call(harness, 'POST', '/api/public/v1/subscriptions', {
      token: merchant.token,
      body: { storeId: store.id, customerId: customer.id, priceId, paymentMethodId: card.id },
    });
    expect(created.status).toBe(201);
    const subscription = await eventually(
      () => harness.db.subscription.findUniqueOrThrow({ where: { id: created.body.id } }),
      (row) => row.paidOrdersCount === 1,
    );
    await untilSubscriptionAsleep(harness, subscription.id);
    return { customer, card, subscription, token: await portalLogin(harness, store.id, email) };
  }

  const portal = (token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(harness, 'POST', `/api/v1/portal${path}`, { body, headers: { 'x-cms-token': token, ...headers } });
  const all = <T>(make: () => Promise<T>) => Promise.all(Array.from({ length: burst }, make));

  /** What the switch burst left behind: customer-initiated charges, switch orders, `switched` events. */
  async function switchEffects(customerId: string, subscriptionId: string) {
    const payments = await harness.db.payment.findMany({ where: { customerId, initiatedBy: 'customer' } });
    const orders = await harness.db.order.findMany({
      where: { source: `subscription:${subscriptionId}` },
      orderBy: { createdAt: 'asc' },
    });
    const events = await harness.db.event.findMany({
      where: {
        accountId: merchant.accountId,
        eventType: 's_subscription_updated',
        properties: { path: ['subscriptionId'], equals: subscriptionId },
      },
    });
    const ledger = (await (
      await fetch(`${harness.sandboxUrl}/acquirer/ledger?merchantId=${store.acquirerMerchantId}&operation=authorize`)
    ).json()) as { entries: { outcome: string; amount: number }[] };
    return {
      succeededPayments: payments.filter((payment) => payment.status === 'succeeded'),
      switchOrders: orders.slice(1), // the first is the subscription's first period
      switchedEvents: events.filter((event) => (event.properties as { change?: string }).change === 'switched'),
      approvedAuthorizations: ledger.entries.filter((entry) => entry.outcome === 'approved'),
    };
  }

  it(`${burst} identical switches without a key: one charge, one order, one switched event; the rest 409 in the error shape`, async () => {
    const { customer, subscription, token } = await subscribedCustomer(basic.price.id);
    const ledgerBefore = (await switchEffects(customer.id, subscription.id)).approvedAuthorizations.length;
    const body = { target: { type: 'subscription', subscriptionId: subscription.id }, optionId: pro.price.id };
    const answers = await all(() => portal(token, '/switch', body));

    const paid = answers.filter((answer) => answer.status === 200);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.body).toMatchObject({
      status: 'paid',
      subscription: { optionId: pro.price.id, paidOrdersCount: 2 },
    });
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(burst - 1);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(['SUBSCRIPTION_BUSY', 'SAME_OPTION']).toContain(answer.body.code);
      expect(typeof answer.body.message).toBe('string');
    }

    const effects = await switchEffects(customer.id, subscription.id);
    expect(effects.succeededPayments).toHaveLength(1);
    expect(effects.succeededPayments[0]!.amount).toBe(paid[0]!.body.amountCharged);
    expect(effects.switchOrders.map((order) => order.id)).toEqual([paid[0]!.body.orderId]);
    expect(effects.switchedEvents).toHaveLength(1);
    expect(effects.approvedAuthorizations.length - ledgerBefore).toBe(1);

    // Once the burst is over the subscription is on the option: a repeat is SAME_OPTION, not a charge.
    const again = await portal(token, '/switch', body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SAME_OPTION');
    expect((await switchEffects(customer.id, subscription.id)).succeededPayments).toHaveLength(1);
  });

  it(`${burst} identical switches with one Idempotency-Key: one effect, every answer the first one replayed`, async () => {
    const { customer, subscription, token } = await subscribedCustomer(basic.price.id);
    const body = { target: { type: 'subscription', subscriptionId: subscription.id }, optionId: pro.price.id };
    const key = `switch-${subscription.id}`;
    const answers = await all(() => portal(token, '/switch', body, { 'idempotency-key': key }));

    expect(answers.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body).toMatchObject({ status: 'paid', subscription: { optionId: pro.price.id } });
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(burst - 1);

    const effects = await switchEffects(customer.id, subscription.id);
    expect(effects.succeededPayments).toHaveLength(1);
    expect(effects.switchOrders.map((order) => order.id)).toEqual([answers[0]!.body.orderId]);
    expect(effects.switchedEvents).toHaveLength(1);

    // The key is the customer's: another customer's session with the same key runs its own switch.
    const other = await subscribedCustomer(basic.price.id);
    const theirs = await portal(
      other.token,
      '/switch',
      { target: { type: 'subscription', subscriptionId: other.subscription.id }, optionId: pro.price.id },
      { 'idempotency-key': key },
    );
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.orderId).not.toBe(answers[0]!.body.orderId);
    // The same key with another body is refused, not replayed.
    const reused = await portal(token, '/switch', { ...body, optionId: basic.price.id }, { 'idempotency-key': key });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it(`${burst} identical credit redemptions with one Idempotency-Key spend the credits once; without a key each is a purchase`, async () => {
    const clubPrice = await createRecurringPrice(harness.db, merchant, store.id, 'Club', 2000);
    const program = await call(harness, 'POST', '/api/public/v1/membership-programs', {
      token: merchant.token,
      body: { storeId: store.id, name: 'Club', optionId: clubPrice.price.id, creditsPerRenewal: 20 },
    });
    expect(program.status).toBe(201);
    const email = `club-${Date.now()}@example.com`;
    const member = await createCustomer(harness.db, merchant, email);
    const card = await createCard(harness.db, harness.config, merchant, member.id, goodCard);
    const enrolled = await call(harness, 'POST', '/api/public/v1/memberships', {
      token: merchant.token,
      body: { programId: program.body.id, customerId: member.id, paymentMethodId: card.id },
    });
    await eventually(
      () => harness.db.membership.findUniqueOrThrow({ where: { id: enrolled.body.id } }),
      (row) => row.creditsBalance === 20,
    );
    const reward = await createRecurringPrice(harness.db, merchant, store.id, 'Tasting kit', 1200, 'one_time');
    const token = await portalLogin(harness, store.id, email);
    const body = { productId: reward.product.id, variantId: reward.variant.id, quantity: 3 };

    const keyed: ApiAnswer[] = await all(() =>
      portal(token, '/credits/redeem', body, { 'idempotency-key': 'redeem-once' }),
    );
    expect(keyed.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    for (const answer of keyed) expect(answer.body).toEqual(keyed[0]!.body);
    expect(keyed[0]!.body.balance).toBe(17);
    const membership = await harness.db.membership.findUniqueOrThrow({ where: { id: enrolled.body.id } });
    expect(membership).toMatchObject({ creditsBalance: 17, savedToDate: 3 * 1200 });
    expect(await harness.db.creditRedemption.count({ where: { membershipId: enrolled.body.id } })).toBe(1);
    expect(await harness.db.order.count({ where: { source: `credits:${enrolled.body.id}` } })).toBe(1);

    // Without a key, identical requests are separate purchases; the balance guard stops them at 0.
    const unkeyed = await all(() => portal(token, '/credits/redeem', body));
    expect(unkeyed.filter((answer) => answer.status === 200)).toHaveLength(5);
    expect(
      unkeyed.filter((answer) => answer.status === 409 && answer.body.code === 'INSUFFICIENT_CREDITS'),
    ).toHaveLength(burst - 5);
    expect((await harness.db.membership.findUniqueOrThrow({ where: { id: enrolled.body.id } })).creditsBalance).toBe(2);
  });
});
