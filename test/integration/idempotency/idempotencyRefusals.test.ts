import { randomUUID } from 'node:crypto';
import { addCrmKey, createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards, payV2 } from '../payments/paymentsFixtures';

/**
 * Which answers an Idempotency-Key keeps (Stripe's rule): refusals before any work (validation,
 * authentication, authorization, a 404 of what the request acts on, rate limit) are not stored, so
 * the corrected request with the same key runs; answers given once work began (a 402 decline, a
 * 409 from a workflow that ran) are stored and replayed.
 */
describe('Idempotency-Key: refusals before work are not stored, answers after work are replayed', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  const post = (path: string, body: unknown, key: string, token = t.token) =>
    call(harness, 'POST', `${api}${path}`, { token, body, headers: { 'idempotency-key': key } });
  const recordOf = (key: string) => harness.db.idempotencyRecord.findFirst({ where: { key } });
  const purchase = async (card = cards.approve) => ({
    storeId: t.storeId,
    customerId: t.customerId,
    currency: 'EUR',
    amount: 1250,
    paymentInstrumentId: await t.instrument(card),
  });

  it('a 400 for a float amount leaves the key free: the corrected body with the same key is charged once', async () => {
    const key = randomUUID();
    const body = await purchase();
    const rejected = await post('/payments/process', { ...body, amount: 12.5 }, key);
    expect(rejected.status).toBe(400);
    expect(rejected.body.code).toBe('VALIDATION_ERROR');
    expect(await recordOf(key)).toBeNull();

    const corrected = await post('/payments/process', body, key);
    expect(corrected.status).toBe(200);
    expect(corrected.body.payment).toMatchObject({ status: 'succeeded', amount: 1250 });
    const replay = await post('/payments/process', body, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(corrected.body);
    expect(
      await t.ledger(t.processorIds[0]!, { reference: corrected.body.payment.id, operation: 'authorize' }),
    ).toHaveLength(1);
  });

  it('a 404 for an unknown store (found before any work) leaves the key free', async () => {
    const key = randomUUID();
    const body = await purchase();
    const missing = await post('/payments/process', { ...body, storeId: 'store_doesnotexist' }, key);
    expect(missing.status).toBe(404);
    expect(await recordOf(key)).toBeNull();
    expect((await post('/payments/process', body, key)).status).toBe(200);
  });

  it('a 404 for a refund of an unknown payment leaves the key free for the real refund', async () => {
    const paid = await post('/payments/process', await purchase(), randomUUID());
    const key = randomUUID();
    const missing = await post('/payments/refund', { paymentId: 'pay_doesnotexist', amount: 100 }, key);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'NOT_FOUND', message: 'Payment not found' });
    const refunded = await post('/payments/refund', { paymentId: paid.body.payment.id, amount: 100 }, key);
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ amount: 100, status: 'succeeded' });
  });

  it('a 404 for a POST to no route leaves the key free', async () => {
    const key = randomUUID();
    expect((await post('/payments/nothing-here', {}, key)).status).toBe(404);
    expect(await recordOf(key)).toBeNull();
  });

  it('a 403 from the admin-only check leaves the key free for an admin key', async () => {
    const memberToken = await addCrmKey(harness.db, t.merchant, { role: 'org:member' });
    const key = randomUUID();
    const body = {
      name: 'P-extra',
      type: 'sandbox',
      credentials: { merchantId: `m_${randomUUID()}` },
      supportedCurrencies: ['EUR'],
      baseCurrency: 'EUR',
    };
    const refused = await post('/processors', body, key, memberToken);
    expect(refused.status).toBe(403);
    expect(await recordOf(key)).toBeNull();
    // Keys are per caller (account + mode), so the admin key of the same account reuses it.
    expect((await post('/processors', body, key)).status).toBe(200);
  });

  it('401 and 429 happen before the key is looked at: they leave no record', async () => {
    const key = randomUUID();
    expect((await post('/payments/process', await purchase(), key, 'sk_crm_test_nottherealkey')).status).toBe(401);
    expect(await recordOf(key)).toBeNull();

    const limited = await createMerchant(harness.db, { plan: 'standard' });
    // A Standard account's burst is 150 a minute: spend it on a cheap GET.
    let status = 200;
    for (let i = 0; i < 200 && status !== 429; i++)
      status = (await call(harness, 'GET', `${api}/auth/test`, { token: limited.token })).status;
    expect(status).toBe(429);
    const limitedKey = randomUUID();
    expect((await post('/payments/process', {}, limitedKey, limited.token)).status).toBe(429);
    expect(await recordOf(limitedKey)).toBeNull();
  });

  it('a 402 decline is stored: the same key replays it, another body with it is 409', async () => {
    const key = randomUUID();
    const body = await purchase(cards.hardDecline);
    const declined = await post('/payments/process', body, key);
    expect(declined.status).toBe(402);
    const replay = await post('/payments/process', body, key);
    expect(replay.status).toBe(402);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(declined.body);
    const other = await post('/payments/process', await purchase(), key);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(
      await t.ledger(t.processorIds[0]!, { reference: declined.body.data.paymentId, operation: 'authorize' }),
    ).toHaveLength(1);
  });

  it('a 409 from a refund workflow that ran is stored and replayed', async () => {
    const paid = await post('/payments/process', await purchase(), randomUUID());
    const key = randomUUID();
    const body = { paymentId: paid.body.payment.id, amount: 999_999 };
    const refused = await post('/payments/refund', body, key);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('REFUND_EXCEEDS_CAPTURED');
    const replay = await post('/payments/refund', body, key);
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await recordOf(key))?.state).toBe('completed');
  });

  it('a pay-v2 409 from the checkout check (before work) is not stored', async () => {
    const checkout = await t.checkout();
    const paymentInstrumentId = await t.instrument(cards.approve);
    expect(
      (
        await payV2(
          harness,
          t.token,
          { checkoutSessionId: checkout.id, paymentInstrumentId },
          { 'idempotency-key': randomUUID() },
        )
      ).status,
    ).toBe(200);
    const key = randomUUID();
    const paidAlready = await payV2(
      harness,
      t.token,
      { checkoutSessionId: checkout.id, paymentInstrumentId },
      { 'idempotency-key': key },
    );
    expect(paidAlready.status).toBe(409);
    expect(paidAlready.body.code).toBe('CHECKOUT_ALREADY_PAID');
    expect(await recordOf(key)).toBeNull();
  });
});
