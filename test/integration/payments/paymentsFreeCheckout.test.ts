import { randomUUID } from 'node:crypto';
import { searchAttributes } from '../../../temporal/searchAttributes';
import { call } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';
import { api, lapseSession, ok, sessionStatusInDb } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, payV2, type PaymentTenant } from './paymentsFixtures';
import { startReceiver, type Receiver } from '../webhooks/webhookReceiver';

/** A cart a 100 % promotion code brings to total 0: pay-v2 completes it with no processor call. */
describe('pay-v2 on a free checkout session (total 0)', () => {
  const harness = useHarness();
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  /** A limit-1 100 % code of the tenant's store. */
  async function freeCode(t: PaymentTenant) {
    const promotion = await ok(harness, 'POST', '/promotions', t.token, {
      storeId: t.storeId,
      name: 'all free',
      discountType: 'percentage',
      percentBasisPoints: 10000,
    });
    return ok<{ id: string; code: string }>(harness, 'POST', '/promotion-codes', t.token, {
      promotionId: promotion.id,
      code: `FREE${randomUUID().slice(0, 8)}`,
      usageLimit: 1,
    });
  }
  const session = (t: PaymentTenant, promotionCodes: string[], customerId = t.customerId) =>
    call(harness, 'POST', `${api}/checkout-sessions`, {
      token: t.token,
      body: { storeId: t.storeId, customerId, lineItems: [{ priceId: t.priceId, quantity: 1 }], promotionCodes },
    });
  async function freeSession(t: PaymentTenant, code: { code: string }, customerId = t.customerId) {
    const created = await session(t, [code.code], customerId);
    expect(created.body).toMatchObject({ subtotal: 1999, discountTotal: 1999, total: 0 });
    return created.body.id as string;
  }
  const timesRedeemed = async (t: PaymentTenant, codeId: string) =>
    (await ok(harness, 'GET', `/promotion-codes/${codeId}`, t.token)).timesRedeemed;
  const eventTypesOf = async (t: PaymentTenant) =>
    (await harness.db.event.findMany({ where: { accountId: t.merchant.accountId }, select: { eventType: true } }))
      .map((e) => e.eventType)
      .sort();

  it('needs no card: 200, order paid, a succeeded payment of 0 with no attempt, the usual events, no processor call, the code use consumed', async () => {
    const t = await createPaymentTenant(harness);
    const webhook = await call(harness, 'POST', `${api}/webhooks`, {
      token: t.token,
      body: { storeId: t.storeId, url: receiver.url, eventTypes: ['order/paid'] },
    });
    expect(webhook.status).toBe(201);
    const code = await freeCode(t);
    const checkoutSessionId = await freeSession(t, code);

    const answer = await payV2(harness, t.token, { checkoutSessionId });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      order: { id: expect.stringMatching(/^ord_/), status: 'paid', totalAmount: 0, currency: 'EUR' },
      payment: { id: expect.stringMatching(/^pay_/), status: 'succeeded', amount: 0, currency: 'EUR' },
      redirectUrl: null,
    });
    const paymentId: string = answer.body.payment.id;
    const orderId: string = answer.body.order.id;
    const detail = await ok(harness, 'GET', `/payments/${paymentId}`, t.token);
    expect(detail).toMatchObject({
      status: 'succeeded',
      amount: 0,
      amountCaptured: 0,
      orderId,
      checkoutSessionId,
      processorId: null,
      paymentInstrumentId: null,
      paymentFlowId: t.flowId,
    });
    expect(detail.attempts).toEqual([]);
    const order = await ok(harness, 'GET', `/orders/${orderId}`, t.token);
    expect(order.order).toMatchObject({ status: 'paid', subtotal: 1999, discountTotal: 1999, totalAmount: 0 });
    expect(order.order.payments).toEqual([expect.objectContaining({ id: paymentId, status: 'succeeded', amount: 0 })]);
    expect(await eventTypesOf(t)).toEqual(['s_checkout_session_paid', 's_order_paid', 's_payment_succeeded']);
    expect(await t.ledger(t.processorIds[0]!)).toEqual([]);

    // Through the payment workflow like any payment, with no processor activity in its history.
    const handle = harness.temporal.workflow.getHandle(paymentId);
    const described = await handle.describe();
    expect(described.type).toBe('paymentWorkflow');
    expect(described.typedSearchAttributes.get(searchAttributes.PaymentStatus)).toBe('succeeded');
    const activities = ((await handle.fetchHistory()).events ?? [])
      .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
      .filter(Boolean);
    expect(activities).not.toContain('authorizeAttempt');

    // The subscribed endpoint gets order/paid with amount 0.
    const delivered = await until(() =>
      receiver.received.find(
        (r) =>
          r.headers['x-webhook-event-type'] === 'order/paid' && JSON.parse(r.body).data.properties.orderId === orderId,
      ),
    );
    expect(JSON.parse(delivered.body).data.properties).toMatchObject({ orderId, amount: 0, currency: 'EUR' });

    // Consumed, not held: the session is paid, so neither expiry nor a lapse gives the use back.
    expect(await sessionStatusInDb(harness, checkoutSessionId)).toBe('paid');
    expect(await timesRedeemed(t, code.id)).toBe(1);
    const expire = await call(harness, 'POST', `${api}/checkout-sessions/expire`, {
      token: t.token,
      body: { id: checkoutSessionId },
    });
    expect(expire.body.code).toBe('CHECKOUT_NOT_OPEN');
    await lapseSession(harness, checkoutSessionId, 10 * 60_000);
    expect((await session(t, [code.code])).body.code).toBe('PROMOTION_CODE_LIMIT_REACHED');
    expect(await timesRedeemed(t, code.id)).toBe(1);

    // Paying it again is the usual 409; a refund has nothing to give back and calls no processor.
    expect((await payV2(harness, t.token, { checkoutSessionId })).body.code).toBe('CHECKOUT_ALREADY_PAID');
    const refund = await call(harness, 'POST', `${api}/payments/refund`, { token: t.token, body: { paymentId } });
    expect(refund.status).toBe(409);
    expect(await t.ledger(t.processorIds[0]!)).toEqual([]);
  });

  it('a card sent anyway is checked but never charged; a card of another customer is refused', async () => {
    const t = await createPaymentTenant(harness);
    const code = await freeCode(t);
    const checkoutSessionId = await freeSession(t, code);
    const stranger = await ok(harness, 'POST', '/customers', t.token, { email: `other-${randomUUID()}@example.com` });
    const foreignCard = await payV2(harness, t.token, {
      checkoutSessionId,
      paymentInstrumentId: await t.instrument(cards.approve, stranger.id),
    });
    expect({ status: foreignCard.status, code: foreignCard.body.code }).toEqual({
      status: 400,
      code: 'PAYMENT_INSTRUMENT_MISMATCH',
    });

    const instrument = await t.instrument(cards.approve);
    const answer = await payV2(harness, t.token, { checkoutSessionId, paymentInstrumentId: instrument });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ status: 'succeeded', amount: 0 });
    const detail = await ok(harness, 'GET', `/payments/${answer.body.payment.id}`, t.token);
    expect(detail).toMatchObject({
      paymentInstrumentId: instrument,
      paymentFlowId: t.flowId,
      processorId: null,
      attempts: [],
    });
    expect(await t.ledger(t.processorIds[0]!)).toEqual([]);
  });

  it('needs no payment flow: a store without a default flow completes a free cart', async () => {
    const t = await createPaymentTenant(harness);
    await ok(harness, 'POST', '/stores/update', t.token, { id: t.storeId, data: { defaultPaymentFlowId: null } });
    const checkoutSessionId = await freeSession(t, await freeCode(t));
    const answer = await payV2(harness, t.token, { checkoutSessionId });
    expect(answer.status).toBe(200);
    expect(answer.body.order.status).toBe('paid');
  });

  it('a cart with something to pay still needs a card and a flow: 400 before anything is written', async () => {
    const t = await createPaymentTenant(harness);
    const paying = await session(t, []);
    expect(paying.body.total).toBe(1999);
    const noCard = await payV2(harness, t.token, { checkoutSessionId: paying.body.id });
    expect({ status: noCard.status, code: noCard.body.code }).toEqual({
      status: 400,
      code: 'PAYMENT_INSTRUMENT_REQUIRED',
    });
    await ok(harness, 'POST', '/stores/update', t.token, { id: t.storeId, data: { defaultPaymentFlowId: null } });
    const noFlow = await payV2(harness, t.token, {
      checkoutSessionId: paying.body.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect({ status: noFlow.status, code: noFlow.body.code }).toEqual({ status: 400, code: 'PAYMENT_FLOW_REQUIRED' });
    expect(await harness.db.payment.count({ where: { accountId: t.merchant.accountId } })).toBe(0);
  });

  it('block rules still apply: a blocked buyer gets 402 blocked_by_rule and the session stays open, its code use held', async () => {
    const t = await createPaymentTenant(harness);
    const code = await freeCode(t);
    const checkoutSessionId = await freeSession(t, code);
    await ok(harness, 'POST', '/block-rules', t.token, { name: 'no ip', type: 'ip', value: ['203.0.113.0/24'] });
    const answer = await payV2(harness, t.token, { checkoutSessionId, customerIp: '203.0.113.9' });
    expect(answer.status).toBe(402);
    expect(answer.body.code).toBe('blocked_by_rule');
    expect(await sessionStatusInDb(harness, checkoutSessionId)).toBe('open');
    expect(await harness.db.order.count({ where: { checkoutSessionId } })).toBe(0);
    expect(await eventTypesOf(t)).toEqual(['s_payment_blocked']);
    expect(await timesRedeemed(t, code.id)).toBe(1);
  });

  it('12 identical concurrent pay-v2 calls complete it once: one order, one payment, one code use; the rest 409', async () => {
    const t = await createPaymentTenant(harness);
    const code = await freeCode(t);
    const checkoutSessionId = await freeSession(t, code);
    const answers = await Promise.all(Array.from({ length: 12 }, () => payV2(harness, t.token, { checkoutSessionId })));
    const paid = answers.filter((a) => a.status === 200);
    expect(paid).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(['CHECKOUT_PAYMENT_IN_PROGRESS', 'CHECKOUT_ALREADY_PAID']).toContain(refused.body.code);
    }
    expect(await harness.db.order.count({ where: { checkoutSessionId } })).toBe(1);
    expect(
      await harness.db.payment.findMany({ where: { checkoutSessionId }, select: { id: true, status: true } }),
    ).toEqual([{ id: paid[0]!.body.payment.id, status: 'succeeded' }]);
    expect(await timesRedeemed(t, code.id)).toBe(1);
    expect(await eventTypesOf(t)).toEqual(['s_checkout_session_paid', 's_order_paid', 's_payment_succeeded']);
  });

  it('12 concurrent calls with one Idempotency-Key all get the same 200 answer from one payment', async () => {
    const t = await createPaymentTenant(harness);
    const code = await freeCode(t);
    const checkoutSessionId = await freeSession(t, code);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => payV2(harness, t.token, { checkoutSessionId }, { 'idempotency-key': key })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(await harness.db.payment.count({ where: { checkoutSessionId } })).toBe(1);
    expect(await harness.db.order.count({ where: { checkoutSessionId } })).toBe(1);
    expect(await timesRedeemed(t, code.id)).toBe(1);
  });

  it('payments/process with amount 0 is a clear 400: a direct payment of nothing has nothing to charge', async () => {
    const t = await createPaymentTenant(harness);
    const answer = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: {
        storeId: t.storeId,
        amount: 0,
        currency: 'EUR',
        paymentInstrumentId: await t.instrument(cards.approve),
        customerId: t.customerId,
      },
    });
    // Refused by the body validator like any out-of-range field (VALIDATION_ERROR naming `amount`), before any workflow.
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      issues: [expect.objectContaining({ path: 'amount' })],
    });
    expect(answer.body.message).toMatch(
      /amount must be at least 1 minor unit: a direct payment of 0 has nothing to charge/,
    );
    expect(await harness.db.payment.count({ where: { accountId: t.merchant.accountId } })).toBe(0);
  });
});
