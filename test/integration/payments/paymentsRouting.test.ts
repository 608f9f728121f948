import { newId } from '../../../src/domain/ids';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, payV2 } from './paymentsFixtures';

describe('routing and recording through the engine (Postgres, dev server, sandbox acquirer)', () => {
  const harness = useHarness();

  const attemptsOf = async (token: string, paymentId: string) =>
    (await ok(harness, 'GET', `/payments/${paymentId}`, token)).attempts.map((a: any) => [
      a.processorId,
      a.outcome,
      a.errorCode,
      a.category,
    ]);

  it('sticky flow: a customer who paid through B (A in outage) goes to B first once A is back; others still start at A', async () => {
    const t = await createPaymentTenant(harness, { processors: 2, flow: { stickyProcessorEnabled: true } });
    const [a, b] = t.processorIds as [string, string];
    const card = await t.instrument(cards.approve);
    await t.outage(a, true);
    const first = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: card,
    });
    expect(first.status).toBe(200);
    expect(await attemptsOf(t.token, first.body.payment.id)).toEqual([
      [a, 'error', 'processor_unavailable', 'technical'],
      [b, 'approved', null, null],
    ]);
    await t.outage(a, false);

    const second = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: card,
    });
    expect(second.status).toBe(200);
    expect(await attemptsOf(t.token, second.body.payment.id)).toEqual([[b, 'approved', null, null]]);

    const other = await ok(harness, 'POST', '/customers', t.token, { email: `other-${Date.now()}@example.com` });
    const third = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout(other.id)).id,
      paymentInstrumentId: await t.instrument(cards.approve, other.id),
    });
    expect(await attemptsOf(t.token, third.body.payment.id)).toEqual([[a, 'approved', null, null]]);
  });

  it('the processing_error card cascades to the second processor; both failing → 402 processing_error with 2 attempts, nothing reversed', async () => {
    const t = await createPaymentTenant(harness, { processors: 2 });
    const [a, b] = t.processorIds as [string, string];
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: await t.instrument(cards.technical),
    });
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({
      code: 'processing_error',
      data: { status: 'failed', declineCode: 'processing_error' },
    });
    const paymentId = answer.body.data.paymentId;
    expect(await attemptsOf(t.token, paymentId)).toEqual([
      [a, 'declined', 'processing_error', 'technical'],
      [b, 'declined', 'processing_error', 'technical'],
    ]);
    for (const processorId of [a, b]) {
      expect((await t.ledger(processorId)).map((e) => [e.operation, e.outcome, e.code])).toEqual([
        ['authorize', 'declined', 'processing_error'],
      ]);
    }
  });

  it('an expired block rule (expiresAt in the past) no longer blocks', async () => {
    const t = await createPaymentTenant(harness);
    const rule = await ok(harness, 'POST', '/block-rules', t.token, {
      name: 'no 4242',
      type: 'card_bin',
      value: ['42424242'],
      ttlHours: 1,
    });
    const card = await t.instrument(cards.approve);
    const blocked = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: card,
    });
    expect(blocked.status).toBe(402);
    expect(blocked.body.code).toBe('blocked_by_rule');

    await harness.db.blockRule.update({ where: { id: rule.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: card,
    });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.status).toBe('succeeded');
    expect(await t.ledger(t.processorIds[0]!, { operation: 'authorize' })).toHaveLength(1);
  });

  it('/payments/process with orderId marks the pending order paid', async () => {
    const t = await createPaymentTenant(harness);
    const order = await harness.db.order.create({
      data: {
        id: newId('order'),
        accountId: t.merchant.accountId,
        mode: 'test',
        storeId: t.storeId,
        customerId: t.customerId,
        status: 'pending',
        subtotal: 1500,
        discountTotal: 0,
        totalAmount: 1500,
        currency: 'EUR',
      },
    });
    const body = {
      storeId: t.storeId,
      amount: 1500,
      currency: 'EUR',
      paymentInstrumentId: await t.instrument(cards.approve),
      customerId: t.customerId,
      orderId: order.id,
    };
    const answer = await call(harness, 'POST', `${api}/payments/process`, { token: t.token, body });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      order: { id: order.id, status: 'paid', totalAmount: 1500, currency: 'EUR' },
      payment: { status: 'succeeded', amount: 1500 },
    });
    const paymentId = answer.body.payment.id;
    expect(await harness.db.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: 'paid',
      paymentId,
    });
    expect(await ok(harness, 'GET', `/payments/${paymentId}`, t.token)).toMatchObject({
      orderId: order.id,
      status: 'succeeded',
    });
    const events = await harness.db.event.findMany({
      where: { accountId: t.merchant.accountId, eventType: 's_order_paid' },
    });
    expect(events.map((e) => (e.properties as any).orderId)).toEqual([order.id]);

    const again = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: { ...body, paymentInstrumentId: await t.instrument(cards.approve) },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ORDER_NOT_PAYABLE');
  });
});
