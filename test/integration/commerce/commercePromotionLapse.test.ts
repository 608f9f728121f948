import { lapsedSessionGraceMs } from '../../../src/commerce/lapsedSessions';
import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, lapseSession, ok, sessionStatusInDb } from './commerceHelpers';

/** Sessions that lapse on their own (open, past expiresAt, never expired explicitly) and the code uses they hold. */
describe('promotion codes held by lapsed checkout sessions', () => {
  const harness = useHarness();
  const shop = useShop(harness, { price: { unitAmount: 1000, currency: 'EUR' } });

  const code = async (extra: Record<string, unknown>) => {
    const promotion = await ok(harness, 'POST', '/promotions', shop.merchant.token, {
      storeId: shop.storeId,
      name: 'promo',
      discountType: 'percentage',
      percentBasisPoints: 1000,
    });
    return ok(harness, 'POST', '/promotion-codes', shop.merchant.token, {
      promotionId: promotion.id,
      code: `L${Date.now()}${Math.floor(Math.random() * 1e6)}`,
      ...extra,
    });
  };
  const session = (customerId: string, promotionCodes: string[]) =>
    call(harness, 'POST', `${api}/checkout-sessions`, {
      token: shop.merchant.token,
      body: { storeId: shop.storeId, customerId, lineItems: [{ priceId: shop.priceId, quantity: 1 }], promotionCodes },
    });
  const lapse = (id: string, agoMs = lapsedSessionGraceMs + 60_000) => lapseSession(harness, id, agoMs);
  const timesRedeemed = async (id: string) =>
    (await ok(harness, 'GET', `/promotion-codes/${id}`, shop.merchant.token)).timesRedeemed;
  const statusInDb = (id: string) => sessionStatusInDb(harness, id);

  it('a limit-1 code held by a lapsed session can be redeemed again: the session flips to expired and gives its use back', async () => {
    const limited = await code({ usageLimit: 1 });
    const customer = await createCustomer(harness, shop.merchant.token);
    const first = await session(customer.id, [limited.code]);
    expect(first.status).toBe(200);
    expect((await session(customer.id, [limited.code])).status).toBe(409);

    await lapse(first.body.id);
    const second = await session(customer.id, [limited.code]);
    expect(second.status).toBe(200);
    expect(await statusInDb(first.body.id)).toBe('expired');
    const expiredEvents = await harness.db.event.findMany({
      where: {
        eventType: 's_checkout_session_expired',
        properties: { path: ['checkoutSessionId'], equals: first.body.id },
      },
    });
    expect(expiredEvents.map((event) => event.properties)).toEqual([
      expect.objectContaining({ checkoutSessionId: first.body.id, reason: 'lapsed' }),
    ]);
    expect(await timesRedeemed(limited.id)).toBe(1);
    expect((await session(customer.id, [limited.code])).body.code).toBe('PROMOTION_CODE_LIMIT_REACHED');
  });

  it('keeps the use while the session is within the grace margin, or while a payment holds it', async () => {
    const limited = await code({ usageLimit: 1 });
    const customer = await createCustomer(harness, shop.merchant.token);
    const held = await session(customer.id, [limited.code]);
    await lapse(held.body.id, 1_000);
    expect((await session(customer.id, [limited.code])).status).toBe(409);

    // A payment claimed it before it expired: that payment may still flip it to paid.
    await harness.db.checkoutPaymentClaim.create({
      data: { checkoutSessionId: held.body.id, paymentId: 'pay_inflight', state: 'held' },
    });
    await lapse(held.body.id);
    expect((await session(customer.id, [limited.code])).status).toBe(409);
    expect(await statusInDb(held.body.id)).toBe('open');

    await harness.db.checkoutPaymentClaim.update({
      where: { checkoutSessionId: held.body.id },
      data: { state: 'released' },
    });
    expect((await session(customer.id, [limited.code])).status).toBe(200);
    expect(await statusInDb(held.body.id)).toBe('expired');
  });

  it('gives back every code of the flipped session, not only the one being redeemed', async () => {
    const limited = await code({ usageLimit: 1 });
    const unlimited = await code({});
    const customer = await createCustomer(harness, shop.merchant.token);
    const both = await session(customer.id, [limited.code, unlimited.code]);
    expect(both.status).toBe(200);
    expect(await timesRedeemed(unlimited.id)).toBe(1);
    await lapse(both.body.id);
    expect((await session(customer.id, [limited.code])).status).toBe(200);
    expect(await timesRedeemed(limited.id)).toBe(1);
    expect(await timesRedeemed(unlimited.id)).toBe(0);
  });

  it('under concurrency: 3 lapsed uses of a limit-3 code and 12 concurrent redeemers give exactly 3 sessions', async () => {
    const limited = await code({ usageLimit: 3 });
    const customer = await createCustomer(harness, shop.merchant.token);
    const old = [];
    for (let i = 0; i < 3; i++) old.push((await session(customer.id, [limited.code])).body.id as string);
    for (const id of old) await lapse(id);

    const answers = await Promise.all(Array.from({ length: 12 }, () => session(customer.id, [limited.code])));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.code)).toEqual(
      Array(9).fill('PROMOTION_CODE_LIMIT_REACHED'),
    );
    expect(await timesRedeemed(limited.id)).toBe(3);
    for (const id of old) expect(await statusInDb(id)).toBe('expired');
    const live = await harness.db.checkoutSession.count({
      where: { customerId: customer.id, status: 'open', expiresAt: { gt: new Date() } },
    });
    expect(live).toBe(3);
  });

  it('first-time-only: a customer whose first session merely lapsed is still a first-time customer', async () => {
    const firstTime = await code({ firstTimeCustomersOnly: true });
    const customer = await createCustomer(harness, shop.merchant.token);
    const first = await session(customer.id, [firstTime.code]);
    expect(first.status).toBe(200);
    expect((await session(customer.id, [firstTime.code])).body.code).toBe('PROMOTION_CODE_FIRST_TIME_ONLY');

    // Past expiresAt at all (no grace for reading it as expired), but a payment holding it keeps it live.
    await lapse(first.body.id, 1_000);
    await harness.db.checkoutPaymentClaim.create({
      data: { checkoutSessionId: first.body.id, paymentId: 'pay_firsttime', state: 'held' },
    });
    expect((await session(customer.id, [firstTime.code])).body.code).toBe('PROMOTION_CODE_FIRST_TIME_ONLY');
    await harness.db.checkoutPaymentClaim.update({
      where: { checkoutSessionId: first.body.id },
      data: { state: 'released' },
    });
    expect((await session(customer.id, [firstTime.code])).status).toBe(200);
  });
});
