import { call } from '../../helpers/harness';
import { useSubscriber } from '../../helpers/fixtures/subscriptions';
import { useHarness } from '../../helpers/useHarness';
import { startReceiver, until, type Receiver } from '../webhooks/webhookReceiver';
import {
  createCard,
  createRecurringPrice,
  decliningCard,
  eventually,
  portalLogin,
  testVaultEnv,
} from './subscriptionsFixtures';

/** A subscription charge's payment names its order; subscriptions name their latest order and payment. */
describe('subscription charges linked to their orders', () => {
  const harness = useHarness(testVaultEnv);
  const sub = useSubscriber(harness, { price: 'Linked beans', unitAmount: 1200, email: 'linked@example.com' });
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    const endpoint = await call(harness, 'POST', '/api/public/v1/webhooks', {
      token: sub.merchant.token,
      body: { storeId: sub.storeId, url: receiver.url, eventTypes: ['payment/succeeded'] },
    });
    expect(endpoint.status).toBe(201);
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const api = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    call(harness, method, `/api/public/v1${path}`, { token: sub.merchant.token, ...(body ? { body } : {}) });
  const subscribe = async (paymentMethodId: string) => {
    const created = await api('POST', '/subscriptions', {
      storeId: sub.storeId,
      customerId: sub.customerId,
      priceId: sub.priceId,
      paymentMethodId,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ latestOrderId: null, latestPaymentId: null });
    return created.body.id as string;
  };

  it("links the first charge's payment to its order everywhere, and names both on the subscription", async () => {
    const subscriptionId = await subscribe(sub.cardId);
    const other = await subscribe(sub.cardId);
    const paid = await eventually(
      () => api('GET', `/subscriptions/${subscriptionId}`),
      (answer) => answer.body.paidOrdersCount === 1,
    );
    const { latestOrderId, latestPaymentId } = paid.body;
    expect(latestOrderId).toMatch(/^ord_/);
    expect(latestPaymentId).toMatch(/^pay_/);

    const order = await api('GET', `/orders/${latestOrderId}`);
    expect(order.body.order).toMatchObject({ status: 'paid', paymentId: latestPaymentId, subscriptionId });
    const payment = await api('GET', `/payments/${latestPaymentId}`);
    expect(payment.body).toMatchObject({ status: 'succeeded', orderId: latestOrderId, subscriptionId, amount: 1200 });

    const payments = await api('POST', '/payments/list', { filters: { subscriptionId } });
    expect(payments.body.data.map((row: { id: string }) => row.id)).toEqual([latestPaymentId]);
    expect(payments.body.data[0].orderId).toBe(latestOrderId);
    const orders = await api('POST', '/orders/list', { filters: { subscriptionId } });
    expect(orders.body.data.map((row: { id: string }) => row.id)).toEqual([latestOrderId]);

    // The other subscription's charge is in neither list, and is found by its own filter.
    await eventually(
      () => api('GET', `/subscriptions/${other}`),
      (answer) => answer.body.paidOrdersCount === 1,
    );
    const otherPayments = await api('POST', '/payments/list', { filters: { subscriptionId: other } });
    expect(otherPayments.body.pagination.totalCount).toBe(1);
    expect(otherPayments.body.data[0].id).not.toBe(latestPaymentId);
    const all = await api('POST', '/payments/list', { filters: { customerId: sub.customerId } });
    expect(all.body.pagination.totalCount).toBeGreaterThanOrEqual(2);

    // The payment/succeeded webhook carries the order too.
    const delivered = await until(async () => {
      const bodies = receiver.received.map((request) => JSON.parse(request.body));
      return bodies.find((body) => body.data.properties.paymentId === latestPaymentId);
    });
    expect(delivered).toMatchObject({ type: 'payment/succeeded', data: { properties: { orderId: latestOrderId } } });
  });

  it("refunding a charge's payment marks its order refunded, as for any order", async () => {
    const subscriptionId = await subscribe(sub.cardId);
    const paid = await eventually(
      () => api('GET', `/subscriptions/${subscriptionId}`),
      (answer) => answer.body.paidOrdersCount === 1,
    );
    const refund = await api('POST', '/payments/refund', { paymentId: paid.body.latestPaymentId });
    expect(refund.status).toBe(200);
    expect(refund.body.status).toBe('succeeded');
    const order = await api('GET', `/orders/${paid.body.latestOrderId}`);
    expect(order.body.order.status).toBe('refunded');
  });

  it('names a declined first charge as the latest payment, without an order', async () => {
    const declining = (await createCard(harness.db, harness.config, sub.merchant, sub.customerId, decliningCard)).id;
    const subscriptionId = await subscribe(declining);
    const pastDue = await eventually(
      () => api('GET', `/subscriptions/${subscriptionId}`),
      (answer) => answer.body.status === 'past_due',
    );
    expect(pastDue.body.latestOrderId).toBeNull();
    const payment = await api('GET', `/payments/${pastDue.body.latestPaymentId}`);
    expect(payment.body).toMatchObject({ status: 'failed', orderId: null, subscriptionId });
    const orders = await api('POST', '/orders/list', { filters: { subscriptionId } });
    expect(orders.body.pagination.totalCount).toBe(0);
  });

  it("links a portal switch's payment to the switch's order", async () => {
    const subscriptionId = await subscribe(sub.cardId);
    const first = await eventually(
      () => api('GET', `/subscriptions/${subscriptionId}`),
      (answer) => answer.body.paidOrdersCount === 1,
    );
    const pro = await createRecurringPrice(harness.db, sub.merchant, sub.storeId, 'Linked pro', 3000);
    const token = await portalLogin(harness, sub.storeId, 'linked@example.com');
    const switched = await call(harness, 'POST', '/api/v1/portal/switch', {
      body: { target: { type: 'subscription', subscriptionId }, optionId: pro.price.id },
      headers: { 'x-cms-token': token },
    });
    expect(switched.body).toMatchObject({ status: 'paid', declineCode: null });
    const orderId = switched.body.orderId as string;
    expect(orderId).not.toBe(first.body.latestOrderId);
    expect(switched.body.subscription.latestOrderId).toBe(orderId);
    const payment = await api('GET', `/payments/${switched.body.subscription.latestPaymentId}`);
    expect(payment.body).toMatchObject({ status: 'succeeded', orderId, subscriptionId });
    expect(payment.body.amount).toBe(switched.body.amountCharged);
    const orders = await api('POST', '/orders/list', { filters: { subscriptionId } });
    expect(orders.body.data.map((row: { id: string }) => row.id).sort()).toEqual(
      [orderId, first.body.latestOrderId].sort(),
    );
  });

  it("shows a membership's latest order and payment (its subscription's)", async () => {
    const clubPrice = await createRecurringPrice(harness.db, sub.merchant, sub.storeId, 'Linked club', 2500);
    const program = await api('POST', '/membership-programs', {
      storeId: sub.storeId,
      name: 'Linked club',
      optionId: clubPrice.price.id,
      creditsPerRenewal: 1,
    });
    const enrolled = await api('POST', '/memberships', {
      programId: program.body.id,
      customerId: sub.customerId,
      paymentMethodId: sub.cardId,
    });
    expect(enrolled.status).toBe(201);
    const member = await eventually(
      () => api('GET', `/memberships/${enrolled.body.id}`),
      (answer) => answer.body.latestOrderId !== null,
    );
    const subscription = await api('GET', `/subscriptions/${enrolled.body.subscriptionId}`);
    expect(member.body.latestOrderId).toBe(subscription.body.latestOrderId);
    expect(member.body.latestPaymentId).toBe(subscription.body.latestPaymentId);
    const payment = await api('GET', `/payments/${member.body.latestPaymentId}`);
    expect(payment.body.orderId).toBe(member.body.latestOrderId);
  });

  it('refuses a subscriptionId filter that is not a sub_ id', async () => {
    const refused = await api('POST', '/payments/list', { filters: { subscriptionId: 'ord_nope' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_FILTER');
  });
});
