import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards, payV2 } from '../payments/paymentsFixtures';

/**
 * Test-trigger samples have the shape real events of their type have: the same keys as an event a
 * real payment recorded, in the store's currency (a EUR store gets EUR samples).
 */
describe('test-trigger samples are shaped like real events (Postgres, dev server, sandbox)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  async function sampleOf(eventType: string): Promise<Record<string, unknown>> {
    const answer = await call(harness, 'POST', `${api}/test/webhooks/trigger`, {
      token: t.token,
      body: { storeId: t.storeId, eventType },
    });
    expect(answer.status).toBe(202);
    const event = await harness.db.event.findUniqueOrThrow({ where: { id: answer.body.eventId } });
    return event.properties as Record<string, unknown>;
  }

  const keysOf = (properties: Record<string, unknown>) =>
    Object.keys(properties)
      .filter((key) => key !== 'sample')
      .sort();

  it('has the keys of the events a real checkout payment records, in the store currency', async () => {
    const checkout = await t.checkout();
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(paid.status).toBe(200);
    const real = await harness.db.event.findMany({
      where: { accountId: t.merchant.accountId, customerId: t.customerId },
    });
    const realOf = (recordType: string) =>
      real.find((event) => event.eventType === recordType)!.properties as Record<string, unknown>;

    for (const [webhookType, recordType] of [
      ['order/paid', 's_order_paid'],
      ['payment/succeeded', 's_payment_succeeded'],
      ['checkout_session/paid', 's_checkout_session_paid'],
    ] as const) {
      const sample = await sampleOf(webhookType);
      expect({ webhookType, keys: keysOf(sample) }).toEqual({ webhookType, keys: keysOf(realOf(recordType)) });
      expect(sample.sample).toBe(true);
      if ('currency' in sample) expect(sample.currency).toBe('EUR');
    }
  });

  it('sends subscription/updated with its change, and money in the store currency for every type', async () => {
    const updated = await sampleOf('subscription/updated');
    expect(updated).toMatchObject({
      change: 'switched',
      currency: 'EUR',
      subscriptionId: expect.stringMatching(/^sub_/),
    });
    for (const webhookType of [
      'order/refunded',
      'payment/refunded',
      'payment/disputed',
      'checkout_session/expired',
      'subscription/renewed',
      'subscription/created',
    ]) {
      expect({ webhookType, currency: (await sampleOf(webhookType)).currency }).toEqual({
        webhookType,
        currency: 'EUR',
      });
    }
  });
});
