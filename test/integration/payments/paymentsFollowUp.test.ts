import { randomUUID } from 'node:crypto';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { authorizeTries, cards, netCharged, payV2 } from './paymentsFixtures';

// The engine waits 1 s for a processor; the acquirer holds the timeout card 2.5 s, then approves.
describe('captures, voids, refunds, disputes and the ambiguous timeout (Postgres, dev server, sandbox)', () => {
  const harness = useHarness({ PROCESSOR_TIMEOUT_MS: '1000' });
  const t = usePaymentTenant(harness, { credentials: { timeoutDelayMs: '2500' } });

  const process = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: { storeId: t.storeId, currency: 'EUR', customerId: t.customerId, ...body },
      headers,
    });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(harness, 'POST', `${api}${path}`, { token: t.token, body, headers });

  it('authorizes (mode auth), then captures part of it; a second capture is 409', async () => {
    const auth = await process({ amount: 3000, mode: 'auth', paymentInstrumentId: await t.instrument(cards.approve) });
    expect(auth.status).toBe(200);
    expect(auth.body.payment).toMatchObject({ status: 'authorized', amount: 3000 });
    const paymentId = auth.body.payment.id;
    const captured = await post('/payments/capture', { paymentId, amount: 2500 });
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ id: paymentId, status: 'succeeded', amountCaptured: 2500 });
    expect(await t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'capture' })).toEqual([
      expect.objectContaining({ amount: 2500, outcome: 'succeeded' }),
    ]);
    const again = await post('/payments/capture', { paymentId });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('PAYMENT_NOT_CAPTURABLE');
  });

  it('captures through /payments/process mode capture by orderId-less paymentId', async () => {
    const auth = await process({ amount: 1200, mode: 'auth', paymentInstrumentId: await t.instrument(cards.approve) });
    const captured = await process({ mode: 'capture', paymentId: auth.body.payment.id });
    expect(captured.status).toBe(200);
    expect(captured.body.payment).toMatchObject({ id: auth.body.payment.id, status: 'succeeded', amount: 1200 });
  });

  it('voids an uncaptured authorization; a captured payment cannot be voided', async () => {
    const auth = await process({ amount: 700, mode: 'auth', paymentInstrumentId: await t.instrument(cards.approve) });
    const voided = await post('/payments/void', { paymentId: auth.body.payment.id });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'canceled', amountCaptured: 0 });
    expect(await t.ledger(t.processorIds[0]!, { reference: auth.body.payment.id, operation: 'void' })).toHaveLength(1);
    const events = await harness.db.event.findMany({
      where: { accountId: t.merchant.accountId, eventType: 's_payment_voided' },
    });
    expect(events.some((e) => (e.properties as any).paymentId === auth.body.payment.id)).toBe(true);

    const purchase = await process({ amount: 700, paymentInstrumentId: await t.instrument(cards.approve) });
    const refused = await post('/payments/void', { paymentId: purchase.body.payment.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PAYMENT_NOT_VOIDABLE');
  });

  it('concurrent partial refunds never exceed the captured amount', async () => {
    const purchase = await process({ amount: 1000, paymentInstrumentId: await t.instrument(cards.approve) });
    const paymentId = purchase.body.payment.id;
    // 6 × 300 requested against 1000 captured: at most 3 can succeed.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        post('/payments/refund', { paymentId, amount: 300 }, { 'idempotency-key': randomUUID() }),
      ),
    );
    const succeeded = answers.filter((a) => a.status === 200);
    expect(succeeded).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'REFUND_EXCEEDS_CAPTURED')).toBe(true);
    const detail = await ok(harness, 'GET', `/payments/${paymentId}`, t.token);
    expect(detail).toMatchObject({ status: 'partially_refunded', amountRefunded: 900, amountCaptured: 1000 });
    expect(detail.refunds.filter((r: any) => r.status === 'succeeded')).toHaveLength(3);
    const ledger = await t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'refund' });
    expect(ledger.reduce((sum: number, e: any) => sum + e.amount, 0)).toBe(900);

    const rest = await post('/payments/refund', { paymentId });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ amount: 100, status: 'succeeded', payment: { status: 'refunded' } });
    const none = await post('/payments/refund', { paymentId, amount: 1 });
    expect(none.status).toBe(409);
  });

  it('records the dispute the acquirer opens on the dispute card; the API updates its status', async () => {
    const purchase = await process({ amount: 900, paymentInstrumentId: await t.instrument(cards.dispute) });
    expect(purchase.status).toBe(200);
    const paymentId = purchase.body.payment.id;
    const detail = await ok(harness, 'GET', `/payments/${paymentId}`, t.token);
    expect(detail.disputes).toEqual([
      expect.objectContaining({ paymentId, status: 'needs_response', currency: 'EUR' }),
    ]);
    const updated = await post('/payments/disputes/update', { disputeId: detail.disputes[0].id, status: 'won' });
    expect(updated.status).toBe(200);
    expect(updated.body.status).toBe('won');
    const manual = await post('/payments/disputes/create', { paymentId, amount: 100, reason: 'fraudulent' });
    expect(manual.status).toBe(200);
    expect(
      await harness.db.event.count({ where: { accountId: t.merchant.accountId, eventType: 's_payment_disputed' } }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('a processor timeout that really approved later ends in exactly one charge', async () => {
    const checkout = await t.checkout();
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.timeout),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.payment.status).toBe('succeeded');
    const paymentId = answer.body.payment.id;
    expect(await t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'authorize' })).toEqual([
      expect.objectContaining({ idempotencyKey: `${paymentId}:1`, outcome: 'approved' }),
    ]);
    const detail = await ok(harness, 'GET', `/payments/${paymentId}`, t.token);
    expect(detail.attempts).toEqual([expect.objectContaining({ attemptNumber: 1, outcome: 'approved' })]);
    // The timeout really happened: the one authorize activity needed a second try to get the answer.
    const tries = await authorizeTries(harness, paymentId);
    expect(tries).toHaveLength(1);
    expect(tries[0]).toBeGreaterThanOrEqual(2);
    const entries = await t.ledger(t.processorIds[0]!, { reference: paymentId });
    expect(entries.map((e) => e.operation)).toEqual(['authorize']);
    expect(netCharged(entries)).toBe(1999);
  });
});
