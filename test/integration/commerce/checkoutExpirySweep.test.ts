import { expireLapsedCheckoutSessions } from '../../../src/commerce/checkoutExpirySweep';
import { lapsedSessionGraceMs } from '../../../src/commerce/lapsedSessions';
import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, lapseSession, ok, sessionStatusInDb } from './commerceHelpers';

/** The sweep that moves checkout sessions whose expiry passed unpaid to expired, with their events. */
describe('checkout expiry sweep', () => {
  const harness = useHarness();
  const shop = useShop(harness, { price: { unitAmount: 1000, currency: 'EUR' } });

  const openSession = async (promotionCodes: string[] = []) => {
    const customer = await createCustomer(harness, shop.merchant.token);
    const answer = await call(harness, 'POST', `${api}/checkout-sessions`, {
      token: shop.merchant.token,
      body: {
        storeId: shop.storeId,
        customerId: customer.id,
        lineItems: [{ priceId: shop.priceId, quantity: 2 }],
        promotionCodes,
      },
    });
    expect(answer.status).toBe(200);
    return answer.body as { id: string; total: number; currency: string };
  };
  const lapse = (id: string, agoMs: number) => lapseSession(harness, id, agoMs);
  const statusInDb = (id: string) => sessionStatusInDb(harness, id);
  const expiryEventsOf = (checkoutSessionId: string) =>
    harness.db.event.findMany({
      where: {
        eventType: 's_checkout_session_expired',
        properties: { path: ['checkoutSessionId'], equals: checkoutSessionId },
      },
    });
  const sweep = () => expireLapsedCheckoutSessions(harness.db, new Date());

  it('expires a lapsed session once, gives its code use back and records s_checkout_session_expired in the same change', async () => {
    const promotion = await ok(harness, 'POST', '/promotions', shop.merchant.token, {
      storeId: shop.storeId,
      name: 'sweep',
      discountType: 'percentage',
      percentBasisPoints: 1000,
    });
    const limited = await ok(harness, 'POST', '/promotion-codes', shop.merchant.token, {
      promotionId: promotion.id,
      code: `SW${Date.now()}`,
      usageLimit: 5,
    });
    const session = await openSession([limited.code]);
    expect((await ok(harness, 'GET', `/promotion-codes/${limited.id}`, shop.merchant.token)).timesRedeemed).toBe(1);
    await lapse(session.id, lapsedSessionGraceMs + 5_000);

    const eventIds = await sweep();
    expect(await statusInDb(session.id)).toBe('expired');
    expect((await ok(harness, 'GET', `/promotion-codes/${limited.id}`, shop.merchant.token)).timesRedeemed).toBe(0);
    const events = await expiryEventsOf(session.id);
    expect(events).toHaveLength(1);
    expect(eventIds).toContain(events[0]!.id);
    expect(events[0]).toMatchObject({
      accountId: shop.merchant.accountId,
      mode: 'test',
      storeId: shop.storeId,
      properties: { checkoutSessionId: session.id, amount: session.total, currency: 'EUR', reason: 'lapsed' },
    });

    // A second sweep finds nothing more to do for it.
    expect(await sweep()).not.toContain(events[0]!.id);
    expect(await expiryEventsOf(session.id)).toHaveLength(1);
    expect((await ok(harness, 'GET', `/promotion-codes/${limited.id}`, shop.merchant.token)).timesRedeemed).toBe(0);
  });

  it('leaves a session within the grace margin, one a payment holds, and a paid one alone', async () => {
    const recent = await openSession();
    await lapse(recent.id, 1_000);
    const held = await openSession();
    await lapse(held.id, lapsedSessionGraceMs + 5_000);
    await harness.db.checkoutPaymentClaim.create({
      data: { checkoutSessionId: held.id, paymentId: 'pay_sweepheld', state: 'held' },
    });
    const paid = await openSession();
    await harness.db.checkoutSession.update({
      where: { id: paid.id },
      data: { status: 'paid', expiresAt: new Date(Date.now() - 3_600_000) },
    });

    await sweep();
    expect(await statusInDb(recent.id)).toBe('open');
    expect(await statusInDb(held.id)).toBe('open');
    expect(await statusInDb(paid.id)).toBe('paid');
    for (const id of [recent.id, held.id, paid.id]) expect(await expiryEventsOf(id)).toHaveLength(0);
  });

  it('an explicit expire records the same event with reason requested', async () => {
    const session = await openSession();
    await ok(harness, 'POST', '/checkout-sessions/expire', shop.merchant.token, { id: session.id });
    const events = await expiryEventsOf(session.id);
    expect(events.map((event) => event.properties)).toEqual([
      { checkoutSessionId: session.id, amount: session.total, currency: 'EUR', reason: 'requested' },
    ]);
  });
});
