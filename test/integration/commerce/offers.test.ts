import { claimCheckoutSessionForPayment, type NewPaymentRow } from '../../../src/payments/checkoutClaims';
import { backendPid, untilBlockedBy } from '../../helpers/rowLocks';
import { call } from '../../helpers/harness';
import { useCheckoutShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, ok } from './commerceHelpers';

describe('upsell and order-bump offers (/offers) over HTTP', () => {
  const harness = useHarness();
  const shop = useCheckoutShop(harness);
  let customerId: string;
  beforeAll(async () => {
    customerId = (await createCustomer(harness, shop.merchant.token)).id;
  });

  const openSession = () =>
    ok(harness, 'POST', '/checkout-sessions', shop.merchant.token, {
      storeId: shop.storeId,
      customerId,
      lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
    });
  const bump = (overrides: Record<string, unknown> = {}) =>
    ok(harness, 'POST', '/offers/create', shop.merchant.token, {
      storeId: shop.storeId,
      type: 'bump',
      title: 'Add a second pair',
      priceId: shop.eurPrice,
      priceOverride: { unitAmount: 999, currency: 'EUR' },
      ...overrides,
    });

  it('creates, gets and lists offers; the product follows the price', async () => {
    const offer = await bump();
    expect(offer).toMatchObject({
      id: expect.stringMatching(/^ofr_/),
      type: 'bump',
      priceId: shop.eurPrice,
      productId: expect.stringMatching(/^prod_/),
      quantity: 1,
      priceOverride: { unitAmount: 999, currency: 'EUR' },
      active: true,
      mode: 'test',
    });
    expect(await ok(harness, 'GET', `/offers/${offer.id}`, shop.merchant.token)).toEqual(offer);
    const upsell = await bump({ type: 'upsell', priceOverride: null });
    expect(upsell.priceOverride).toBeNull();
    const listed = await ok(harness, 'POST', '/offers/list', shop.merchant.token, { filters: { type: 'bump' } });
    const ids = listed.data.map((row: { id: string }) => row.id);
    expect(ids).toContain(offer.id);
    expect(ids).not.toContain(upsell.id);
  });

  it('refuses bad input with 400 and hides offers from other accounts and modes (404)', async () => {
    const base = { storeId: shop.storeId, type: 'bump', title: 'x', priceId: shop.eurPrice };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, type: 'cross_sell' }, 'VALIDATION_ERROR'],
      [{ ...base, priceId: 'price_nope' }, 'PRICE_NOT_FOUND'],
      [{ ...base, priceOverride: { unitAmount: 9.5, currency: 'EUR' } }, 'VALIDATION_ERROR'],
      [{ ...base, priceOverride: { unitAmount: 100, currency: 'GBP' } }, 'CURRENCY_NOT_SUPPORTED'],
      [{ ...base, title: '' }, 'VALIDATION_ERROR'],
    ];
    for (const [body, code] of cases) {
      const answer = await call(harness, 'POST', `${api}/offers/create`, { token: shop.merchant.token, body });
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code });
    }
    const offer = await bump();
    for (const token of [shop.other.token, shop.liveToken])
      expect((await call(harness, 'GET', `${api}/offers/${offer.id}`, { token })).status).toBe(404);
    expect((await call(harness, 'GET', `${api}/offers/co_abc`, { token: shop.merchant.token })).status).toBe(400);
  });

  it('applies a bump to an open session once: a new line, totals recomputed', async () => {
    const offer = await bump();
    const session = await openSession();
    const applied = await ok(harness, 'POST', `/offers/${offer.id}/apply`, shop.merchant.token, {
      checkoutSessionId: session.id,
    });
    expect(applied.lineItems).toHaveLength(2);
    expect(applied.lineItems[1]).toMatchObject({ offerId: offer.id, unitAmount: 999, amountSubtotal: 999 });
    expect({ subtotal: applied.subtotal, total: applied.total }).toEqual({ subtotal: 1999 + 999, total: 1999 + 999 });
    const again = await ok(harness, 'POST', `/offers/${offer.id}/apply`, shop.merchant.token, {
      checkoutSessionId: session.id,
    });
    expect(again).toEqual(applied);
  });

  it('10 concurrent applies of one bump add exactly one line', async () => {
    const offer = await bump({ priceOverride: { unitAmount: 500, currency: 'EUR' } });
    const session = await openSession();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(harness, 'POST', `${api}/offers/${offer.id}/apply`, {
          token: shop.merchant.token,
          body: { checkoutSessionId: session.id },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const lines = await harness.db.checkoutSessionLineItem.findMany({ where: { checkoutSessionId: session.id } });
    expect(lines.filter((line) => line.offerId === offer.id)).toHaveLength(1);
    const stored = await ok(harness, 'GET', `/checkout-sessions/${session.id}`, shop.merchant.token);
    expect(stored.total).toBe(1999 + 500);
  });

  it('refuses upsells, other currencies, closed sessions and other tenants', async () => {
    const session = await openSession();
    const apply = (offerId: string, checkoutSessionId = session.id, token = shop.merchant.token) =>
      call(harness, 'POST', `${api}/offers/${offerId}/apply`, { token, body: { checkoutSessionId } });
    const codeOf = async (answer: Promise<{ status: number; body: { code: string } }>) => {
      const { status, body } = await answer;
      return { status, code: body.code };
    };
    const upsell = await bump({ type: 'upsell' });
    expect(await codeOf(apply(upsell.id))).toEqual({ status: 400, code: 'OFFER_NOT_A_BUMP' });
    const usd = await bump({ priceOverride: { unitAmount: 100, currency: 'USD' } });
    expect(await codeOf(apply(usd.id))).toEqual({ status: 400, code: 'CURRENCY_MISMATCH' });
    const inactive = await bump({ active: false });
    expect(await codeOf(apply(inactive.id))).toEqual({ status: 409, code: 'OFFER_INACTIVE' });
    const offer = await bump();
    await ok(harness, 'POST', '/checkout-sessions/expire', shop.merchant.token, { id: session.id });
    expect(await codeOf(apply(offer.id))).toEqual({ status: 409, code: 'CHECKOUT_NOT_OPEN' });
    expect(await codeOf(apply(offer.id, 'ch_missing'))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await codeOf(apply(offer.id, session.id, shop.other.token))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  describe('a bump and a payment racing for one session', () => {
    /** The row prepare writes with its claim: a card payment of the session's total as it was read. */
    const paymentOf = (id: string, session: { id: string; total: number; currency: string }): NewPaymentRow => ({
      id,
      accountId: shop.merchant.accountId,
      mode: 'test',
      storeId: shop.storeId,
      customerId,
      orderId: null,
      checkoutSessionId: session.id,
      paymentInstrumentId: null,
      paymentFlowId: null,
      threedsSessionId: null,
      intent: 'purchase',
      amount: session.total,
      currency: session.currency,
      initiatedBy: 'customer',
      source: null,
      clientIp: null,
      returnUrl: null,
      metadata: null,
      workflowRunId: null,
    });
    /** Whether `promise` has settled yet (it must not while it waits on the lock). */
    const settled = (promise: Promise<unknown>) => {
      let done = false;
      void promise.then(
        () => (done = true),
        () => (done = true),
      );
      return () => done;
    };

    it('a payment claiming while a bump holds the session waits, then is refused CHECKOUT_CHANGED', async () => {
      const session = await openSession();
      let releaseBump!: () => void;
      const bumpMayCommit = new Promise<void>((resolve) => (releaseBump = resolve));
      let bumpLocked!: (pid: number) => void;
      const bumpHasLock = new Promise<number>((resolve) => (bumpLocked = resolve));
      // What applyBump does inside its transaction: lock the row, change the total, commit later.
      const bump = harness.db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "checkout_sessions" WHERE "id" = ${session.id} FOR UPDATE`;
        await tx.checkoutSession.update({ where: { id: session.id }, data: { total: session.total + 500 } });
        bumpLocked(await backendPid(tx));
        await bumpMayCommit;
      });
      const bumpPid = await bumpHasLock;
      const claim = claimCheckoutSessionForPayment(harness.db, paymentOf('pay_racer1', session));
      const claimSettled = settled(claim);
      await untilBlockedBy(harness.db, bumpPid);
      expect(claimSettled()).toBe(false);
      releaseBump();
      await bump;
      expect(await claim).toMatchObject({ kind: 'conflict', code: 'CHECKOUT_CHANGED' });
    });

    it('a bump applied while a payment holds the claim waits, then is refused CHECKOUT_PAYMENT_IN_PROGRESS', async () => {
      const offer = await bump();
      const session = await openSession();
      let releasePayment!: () => void;
      const paymentMayCommit = new Promise<void>((resolve) => (releasePayment = resolve));
      let claimed!: (pid: number) => void;
      const paymentClaimed = new Promise<number>((resolve) => (claimed = resolve));
      const payment = harness.db.$transaction(async (tx) => {
        expect(await claimCheckoutSessionForPayment(tx, paymentOf('pay_racer2', session))).toBeNull();
        claimed(await backendPid(tx));
        await paymentMayCommit;
      });
      const paymentPid = await paymentClaimed;
      const apply = call(harness, 'POST', `${api}/offers/${offer.id}/apply`, {
        token: shop.merchant.token,
        body: { checkoutSessionId: session.id },
      });
      const applySettled = settled(apply);
      await untilBlockedBy(harness.db, paymentPid);
      expect(applySettled()).toBe(false);
      releasePayment();
      await payment;
      const answer = await apply;
      expect({ status: answer.status, code: answer.body.code }).toEqual({
        status: 409,
        code: 'CHECKOUT_PAYMENT_IN_PROGRESS',
      });
      const stored = await ok(harness, 'GET', `/checkout-sessions/${session.id}`, shop.merchant.token);
      expect({ lines: stored.lineItems.length, total: stored.total }).toEqual({ lines: 1, total: session.total });
    });
  });
});
