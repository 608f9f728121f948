import { randomUUID } from 'node:crypto';
import { cards, createPaymentTenant, netCharged, payV2 } from './paymentsFixtures';
import { useHarness } from '../../helpers/useHarness';

/**
 * A keyed pay-v2 whose answer was never stored (its API process was killed mid-request, or it
 * answered 5xx) is retried once its idempotency record no longer binds the key. By then its own
 * payment may have paid the session: the retry must get that payment's answer, not
 * 409 CHECKOUT_ALREADY_PAID, which would tell the client nothing about money already taken.
 * Found by `npm run chaos` (kill -9 of the API).
 */
describe('pay-v2 retried with the same Idempotency-Key after its answer was lost (Postgres, dev server, sandbox acquirer)', () => {
  const harness = useHarness();

  it('answers with the payment the key started, ten retries at once, one charge', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const body = { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve) };
    const key = randomUUID();
    const first = await payV2(harness, t.token, body, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    // What a killed API leaves once its in-progress record is taken over: no stored answer.
    await harness.db.idempotencyRecord.deleteMany({ where: { key } });

    const retries = await Promise.all(
      Array.from({ length: 10 }, () => payV2(harness, t.token, body, { 'idempotency-key': key })),
    );
    for (const retry of retries) {
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
    }
    expect(await harness.db.payment.count({ where: { checkoutSessionId: checkout.id } })).toBe(1);
    expect(netCharged(await t.ledger(t.processorIds[0]!))).toBe(1999);
  });

  it('still refuses another key on a session that key did not pay', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const body = { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve) };
    expect((await payV2(harness, t.token, body, { 'idempotency-key': randomUUID() })).status).toBe(200);
    const other = await payV2(harness, t.token, body, { 'idempotency-key': randomUUID() });
    expect(other).toMatchObject({ status: 409, body: { code: 'CHECKOUT_ALREADY_PAID' } });
  });
});
