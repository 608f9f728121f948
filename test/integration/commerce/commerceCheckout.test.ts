import {
  CheckoutAlreadyPaidError,
  createOrder,
  createOrderForPaidCheckout,
  loadCheckoutForPayment,
} from '../../../src/commerce/orders';
import { toApiError } from '../../../src/http/core/errors';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { api, createCustomer, createProduct, createStore, createTenants, ok, type Tenants } from './commerceHelpers';

/** A thrown refusal as the API answers it: status and code. */
function answered(error: unknown) {
  const apiError = toApiError(error);
  return { status: apiError.status, code: apiError.code };
}

/** The refusal a promise rejects with, as the API answers it (a promise that resolves fails the test). */
function refusalOf(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => answered(error),
  );
}

describe('checkout sessions, promotion redemption and orders over HTTP', () => {
  let harness: Harness;
  let t: Tenants;
  let storeId: string;
  let eurPrice: string;
  let jpyPrice: string;
  let usdPrice: string;

  const promotion = (body: Record<string, unknown>) =>
    ok(harness, 'POST', '/promotions', t.merchant.token, { storeId, name: 'promo', ...body });
  const code = async (promotionId: string, extra: Record<string, unknown> = {}) => {
    const created = await ok(harness, 'POST', '/promotion-codes', t.merchant.token, {
      promotionId,
      code: `C${Date.now()}${Math.floor(Math.random() * 1e6)}`,
      ...extra,
    });
    return created as { id: string; code: string };
  };
  const session = (body: Record<string, unknown>, token = t.merchant.token) =>
    call(harness, 'POST', `${api}/checkout-sessions`, { token, body: { storeId, ...body } });

  beforeAll(async () => {
    harness = await startHarness();
    t = await createTenants(harness);
    storeId = (
      await createStore(harness, t.merchant.token, { baseCurrency: 'EUR', presentmentCurrencies: ['JPY', 'USD'] })
    ).id;
    eurPrice = (
      await createProduct(harness, t.merchant.token, storeId, [{ unitAmount: 1999, currency: 'EUR' }], 'Socks')
    ).variants[0].prices[0].id;
    jpyPrice = (await createProduct(harness, t.merchant.token, storeId, [{ unitAmount: 1500, currency: 'JPY' }], 'Tea'))
      .variants[0].prices[0].id;
    usdPrice = (await createProduct(harness, t.merchant.token, storeId, [{ unitAmount: 300, currency: 'USD' }], 'Pen'))
      .variants[0].prices[0].id;
  });
  afterAll(async () => {
    await harness?.stop();
  });

  describe('totals, computed server-side in minor units', () => {
    it('multi-quantity lines with a percentage promotion (basis points, rounded half up)', async () => {
      const customer = await createCustomer(harness, t.merchant.token);
      const pct = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 1500 })).id);
      const answer = await session({
        customerId: customer.id,
        lineItems: [{ priceId: eurPrice, quantity: 3 }],
        promotionCodes: [pct.code.toLowerCase()],
      });
      expect(answer.status).toBe(200);
      // 3 x 19.99 = 59.97; 15% = 8.9955 -> 9.00
      expect(answer.body).toMatchObject({
        currency: 'EUR',
        status: 'open',
        subtotal: 5997,
        discountTotal: 900,
        total: 5097,
        promotionCodeIds: [pct.id],
      });
      expect(answer.body.lineItems).toEqual([
        expect.objectContaining({
          priceId: eurPrice,
          quantity: 3,
          unitAmount: 1999,
          amountSubtotal: 5997,
          productName: 'Socks',
        }),
      ]);
      expect(await ok(harness, 'GET', `/checkout-sessions/${answer.body.id}`, t.merchant.token)).toEqual(answer.body);
    });

    it('a fixed-amount promotion in the session currency, never below zero', async () => {
      const customer = await createCustomer(harness, t.merchant.token);
      const fixed = await code((await promotion({ discountType: 'fixed_amount', amountOff: 500, currency: 'USD' })).id);
      const small = await session({
        customerId: customer.id,
        currency: 'USD',
        lineItems: [{ priceId: usdPrice, quantity: 1 }],
        promotionCodes: [fixed.code],
      });
      expect(small.body).toMatchObject({ subtotal: 300, discountTotal: 300, total: 0 });
      const big = await session({
        customerId: customer.id,
        currency: 'USD',
        lineItems: [{ priceId: usdPrice, quantity: 4 }],
        promotionCodes: [fixed.code],
      });
      expect(big.body).toMatchObject({ subtotal: 1200, discountTotal: 500, total: 700 });
      // A USD amount off cannot apply to an EUR session: 400, and nothing is redeemed.
      const wrongCurrency = await session({
        customerId: customer.id,
        lineItems: [{ priceId: eurPrice, quantity: 1 }],
        promotionCodes: [fixed.code],
      });
      expect(wrongCurrency.status).toBe(400);
      expect((await ok(harness, 'GET', `/promotion-codes/${fixed.id}`, t.merchant.token)).timesRedeemed).toBe(2);
    });

    it('a zero-decimal currency (JPY) with a percentage promotion', async () => {
      const customer = await createCustomer(harness, t.merchant.token);
      const pct = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 333 })).id);
      const answer = await session({
        customerId: customer.id,
        currency: 'JPY',
        lineItems: [{ priceId: jpyPrice, quantity: 3 }],
        promotionCodes: [pct.code],
      });
      expect(answer.body).toMatchObject({ currency: 'JPY', subtotal: 4500, discountTotal: 150, total: 4350 });
    });

    it('refuses prices in another currency, unknown prices, unknown codes, and a currency the store does not sell in', async () => {
      const customer = await createCustomer(harness, t.merchant.token);
      const cases: [Record<string, unknown>, string][] = [
        [{ customerId: customer.id, lineItems: [{ priceId: jpyPrice, quantity: 1 }] }, 'CURRENCY_MISMATCH'],
        [{ customerId: customer.id, lineItems: [{ priceId: 'price_doesnotexist', quantity: 1 }] }, 'PRICE_NOT_FOUND'],
        [
          { customerId: customer.id, lineItems: [{ priceId: eurPrice, quantity: 1 }], promotionCodes: ['NOPE'] },
          'PROMOTION_CODE_INVALID',
        ],
        [
          { customerId: customer.id, currency: 'GBP', lineItems: [{ priceId: eurPrice, quantity: 1 }] },
          'CURRENCY_NOT_SUPPORTED',
        ],
      ];
      for (const [body, codeName] of cases) {
        const answer = await session(body);
        expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: codeName });
      }
      expect((await session({ lineItems: [{ priceId: eurPrice, quantity: 1 }] })).status).toBe(400);
      expect((await session({ customerId: customer.id, lineItems: [{ priceId: eurPrice, quantity: 0 }] })).status).toBe(
        400,
      );
    });

    it('creates the customer from customer details when no customerId is given, and reuses it by email', async () => {
      const email = `new-${Date.now()}@example.com`;
      const first = await session({
        customer: { email, firstName: 'Lin' },
        lineItems: [{ priceId: eurPrice, quantity: 1 }],
      });
      const second = await session({ customer: { email }, lineItems: [{ priceId: eurPrice, quantity: 1 }] });
      expect(first.status).toBe(200);
      expect(first.body.customer).toMatchObject({ email, name: 'Lin' });
      expect(second.body.customerId).toBe(first.body.customerId);
    });
  });

  describe('promotion code limits under concurrency', () => {
    it('50 concurrent redemptions of a code limited to 10 give exactly 10 sessions, and nothing half-written', async () => {
      const limited = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 1000 })).id, {
        usageLimit: 10,
      });
      const customer = await createCustomer(harness, t.merchant.token);
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          session({
            customerId: customer.id,
            lineItems: [{ priceId: eurPrice, quantity: 1 }],
            promotionCodes: [limited.code],
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 409)).toHaveLength(40);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('PROMOTION_CODE_LIMIT_REACHED');
      expect((await ok(harness, 'GET', `/promotion-codes/${limited.id}`, t.merchant.token)).timesRedeemed).toBe(10);
      expect(await harness.db.promotionRedemption.count({ where: { promotionCodeId: limited.id } })).toBe(10);
      expect(await harness.db.checkoutSession.count({ where: { customerId: customer.id } })).toBe(10);
    });

    it('first-time-only codes: refused after an order, and 10 concurrent tries by one new customer give exactly 1', async () => {
      const firstTime = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 2000 })).id, {
        firstTimeCustomersOnly: true,
      });
      const fresh = await createCustomer(harness, t.merchant.token);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          session({
            customerId: fresh.id,
            lineItems: [{ priceId: eurPrice, quantity: 1 }],
            promotionCodes: [firstTime.code],
          }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body.code)).toEqual(
        Array(9).fill('PROMOTION_CODE_FIRST_TIME_ONLY'),
      );

      const returning = await createCustomer(harness, t.merchant.token);
      const plain = await session({ customerId: returning.id, lineItems: [{ priceId: eurPrice, quantity: 1 }] });
      await harness.db.$transaction((tx) =>
        createOrderForPaidCheckout(tx, { checkoutSessionId: plain.body.id, paymentId: 'pay_test1' }),
      );
      const refused = await session({
        customerId: returning.id,
        lineItems: [{ priceId: eurPrice, quantity: 1 }],
        promotionCodes: [firstTime.code],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('PROMOTION_CODE_FIRST_TIME_ONLY');
    });

    it('expiring an unpaid session gives its redemption back; a deactivated code is refused', async () => {
      const limited = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 1000 })).id, {
        usageLimit: 1,
      });
      const customer = await createCustomer(harness, t.merchant.token);
      const first = await session({
        customerId: customer.id,
        lineItems: [{ priceId: eurPrice, quantity: 1 }],
        promotionCodes: [limited.code],
      });
      expect(
        (
          await session({
            customerId: customer.id,
            lineItems: [{ priceId: eurPrice, quantity: 1 }],
            promotionCodes: [limited.code],
          })
        ).status,
      ).toBe(409);
      const expired = await ok(harness, 'POST', '/checkout-sessions/expire', t.merchant.token, { id: first.body.id });
      expect(expired.status).toBe('expired');
      const expiredEvent = await harness.db.event.findFirst({
        where: { accountId: t.merchant.accountId, eventType: 's_checkout_session_expired' },
      });
      expect(expiredEvent?.properties).toMatchObject({ checkoutSessionId: first.body.id });
      expect(
        (
          await call(harness, 'POST', `${api}/checkout-sessions/expire`, {
            token: t.merchant.token,
            body: { id: first.body.id },
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await session({
            customerId: customer.id,
            lineItems: [{ priceId: eurPrice, quantity: 1 }],
            promotionCodes: [limited.code],
          })
        ).status,
      ).toBe(200);

      // A session past its expiry reads as expired, in GET and in list filters, before anything flips it.
      const overdue = await session({ customerId: customer.id, lineItems: [{ priceId: eurPrice, quantity: 1 }] });
      await harness.db.checkoutSession.update({
        where: { id: overdue.body.id },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      expect((await ok(harness, 'GET', `/checkout-sessions/${overdue.body.id}`, t.merchant.token)).status).toBe(
        'expired',
      );
      const listIds = async (status: unknown) =>
        (
          await ok(harness, 'POST', '/checkout-sessions/list', t.merchant.token, {
            filters: { customerId: customer.id, status },
          })
        ).data.map((row: { id: string }) => row.id);
      expect(await listIds('expired')).toEqual(expect.arrayContaining([overdue.body.id, first.body.id]));
      expect(await listIds('open')).not.toContain(overdue.body.id);
      expect(await listIds(['open', 'paid'])).not.toContain(overdue.body.id);
      expect(await listIds({ condition: 'not-equals', value: 'open' })).toContain(overdue.body.id);

      await ok(harness, 'POST', '/promotion-codes/update', t.merchant.token, {
        id: limited.id,
        data: { active: false, usageLimit: 5 },
      });
      const inactive = await session({
        customerId: customer.id,
        lineItems: [{ priceId: eurPrice, quantity: 1 }],
        promotionCodes: [limited.code],
      });
      expect(inactive.body.code).toBe('PROMOTION_CODE_INACTIVE');
    });
  });

  describe('paying a session and the resulting order', () => {
    it('a paid session cannot be paid again, even by two concurrent payers; the order has part 2 shape', async () => {
      const customer = await ok(harness, 'POST', '/customers', t.merchant.token, {
        email: `payer-${Date.now()}@example.com`,
        firstName: 'Ada',
        lastName: 'Lovelace',
      });
      const open = await session({ customerId: customer.id, lineItems: [{ priceId: eurPrice, quantity: 2 }] });
      const forPayment = await loadCheckoutForPayment(harness.db, {
        accountId: t.merchant.accountId,
        mode: 'test',
        checkoutSessionId: open.body.id,
      });
      expect(forPayment).toMatchObject({
        status: 'open',
        amount: 3998,
        currency: 'EUR',
        store: { id: storeId },
        customer: { id: customer.id },
      });

      const results = await Promise.allSettled(
        ['pay_first', 'pay_second'].map((paymentId) =>
          harness.db.$transaction((tx) =>
            createOrderForPaidCheckout(tx, { checkoutSessionId: open.body.id, paymentId }),
          ),
        ),
      );
      const won = results.filter((result) => result.status === 'fulfilled');
      const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(CheckoutAlreadyPaidError);
      expect(lost[0]!.reason).toMatchObject({
        name: 'CheckoutAlreadyPaidError',
        kind: 'conflict',
        code: 'CHECKOUT_ALREADY_PAID',
      });
      expect(answered(lost[0]!.reason)).toMatchObject({ status: 409, code: 'CHECKOUT_ALREADY_PAID' });
      expect(await harness.db.order.count({ where: { checkoutSessionId: open.body.id } })).toBe(1);

      const paid = await ok(harness, 'GET', `/checkout-sessions/${open.body.id}`, t.merchant.token);
      expect(paid).toMatchObject({ status: 'paid', paymentId: expect.stringMatching(/^pay_(first|second)$/) });
      await expect(
        refusalOf(
          loadCheckoutForPayment(harness.db, {
            accountId: t.merchant.accountId,
            mode: 'test',
            checkoutSessionId: open.body.id,
          }),
        ),
      ).resolves.toMatchObject({
        status: 409,
        code: 'CHECKOUT_ALREADY_PAID',
      });
      await expect(
        refusalOf(
          loadCheckoutForPayment(harness.db, {
            accountId: t.other.accountId,
            mode: 'test',
            checkoutSessionId: open.body.id,
          }),
        ),
      ).resolves.toMatchObject({ status: 404 });

      const orderId = (won[0] as PromiseFulfilledResult<{ id: string }>).value.id;
      const { order } = await ok(harness, 'GET', `/orders/${orderId}`, t.merchant.token);
      expect(order).toMatchObject({
        id: orderId,
        status: 'paid',
        totalAmount: 3998,
        currency: 'EUR',
        checkoutSessionId: open.body.id,
        customer: { email: customer.email, name: 'Ada Lovelace' },
        items: [{ quantity: 2, unitAmount: 1999, totalAmount: 3998, orderLineItemProduct: { name: 'Socks' } }],
        payments: [],
      });
      expect(order.items[0].id).toMatch(/^oli_/);
      expect(Number.isNaN(Date.parse(order.createdAt))).toBe(false);

      // The product name is a snapshot: renaming the product later does not rewrite the order.
      const socks = await harness.db.price.findUniqueOrThrow({ where: { id: eurPrice }, include: { variant: true } });
      await ok(harness, 'PUT', `/products/${socks.variant.productId}`, t.merchant.token, {
        updatedData: { name: 'Wool socks' },
      });
      expect(
        (await ok(harness, 'GET', `/orders/${orderId}`, t.merchant.token)).order.items[0].orderLineItemProduct.name,
      ).toBe('Socks');
      await ok(harness, 'PUT', `/products/${socks.variant.productId}`, t.merchant.token, {
        updatedData: { name: 'Socks' },
      });
    });

    it('lists orders and sessions with filters; other accounts and live keys see neither', async () => {
      const email = `lister-${Date.now()}@example.com`;
      const customer = await ok(harness, 'POST', '/customers', t.merchant.token, { email });
      const open = await session({ customerId: customer.id, lineItems: [{ priceId: eurPrice, quantity: 1 }] });
      const order = await harness.db.$transaction((tx) =>
        createOrderForPaidCheckout(tx, { checkoutSessionId: open.body.id, paymentId: 'pay_list' }),
      );
      // A day either side, so a run across 00:00 UTC still finds what it just made.
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const listed = await ok(harness, 'POST', '/orders/list', t.merchant.token, {
        filters: {
          customerEmail: email,
          status: ['paid'],
          createdAt: { condition: 'is-between-date', value: [day(-1), day(1)] },
        },
        sortBy: { field: 'createdAt', direction: 'desc' },
        pagination: { page: 1, pageSize: 10 },
      });
      expect(listed.data.map((row: { id: string }) => row.id)).toEqual([order.id]);
      expect(listed.pagination).toEqual({ page: 1, pageSize: 10, totalCount: 1, totalPages: 1 });
      const sessions = await ok(harness, 'POST', '/checkout-sessions/list', t.merchant.token, {
        filters: { customerId: customer.id, status: 'paid' },
      });
      expect(sessions.data.map((row: { id: string }) => row.id)).toEqual([open.body.id]);
      expect(
        (
          await call(harness, 'POST', `${api}/orders/list`, {
            token: t.merchant.token,
            body: { filters: { payment: 'x' } },
          })
        ).status,
      ).toBe(400);
      for (const status of ['bogus', ['paid', 'bogus'], { condition: 'not-equals', value: 'PAID' }]) {
        const answer = await call(harness, 'POST', `${api}/orders/list`, {
          token: t.merchant.token,
          body: { filters: { status } },
        });
        expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: 'INVALID_FILTER' });
      }

      for (const token of [t.other.token, t.liveToken]) {
        expect((await call(harness, 'GET', `${api}/orders/${order.id}`, { token })).status).toBe(404);
        expect((await call(harness, 'GET', `${api}/checkout-sessions/${open.body.id}`, { token })).status).toBe(404);
        expect(
          (await call(harness, 'POST', `${api}/checkout-sessions/expire`, { token, body: { id: open.body.id } }))
            .status,
        ).toBe(404);
        expect(
          (await ok(harness, 'POST', '/orders/list', token, {})).data.map((row: { id: string }) => row.id),
        ).not.toContain(order.id);
        expect(
          (await ok(harness, 'POST', '/checkout-sessions/list', token, {})).data.map((row: { id: string }) => row.id),
        ).not.toContain(open.body.id);
        // Nor can they build a session on a store they do not see.
        expect(
          (await session({ customerId: customer.id, lineItems: [{ priceId: eurPrice, quantity: 1 }] }, token)).status,
        ).toBe(404);
      }
    });
  });
});

describe('createOrder for direct orders (subscriptions, credits)', () => {
  let harness: Harness;
  let t: Tenants;
  beforeAll(async () => {
    harness = await startHarness();
    t = await createTenants(harness);
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('creates an order with item totals in minor units and refuses bad amounts without writing', async () => {
    const storeId = (await createStore(harness, t.merchant.token)).id;
    const customer = await createCustomer(harness, t.merchant.token);
    const base = {
      accountId: t.merchant.accountId,
      mode: 'test' as const,
      storeId,
      customerId: customer.id,
      currency: 'EUR',
      source: 'subscription',
    };
    const order = await harness.db.$transaction((tx) =>
      createOrder(tx, {
        ...base,
        items: [
          { productName: 'Box', quantity: 2, unitAmount: 1250 },
          { productName: 'Card', quantity: 1, unitAmount: 99 },
        ],
      }),
    );
    expect(order).toMatchObject({
      status: 'paid',
      subtotal: 2599,
      discountTotal: 0,
      totalAmount: 2599,
      source: 'subscription',
    });
    expect(order.items.map((item) => item.totalAmount)).toEqual([2500, 99]);
    const { order: shown } = await ok(harness, 'GET', `/orders/${order.id}`, t.merchant.token);
    expect(
      shown.items.map((item: { orderLineItemProduct: { name: string } }) => item.orderLineItemProduct.name),
    ).toEqual(['Box', 'Card']);
    expect(shown.payments).toEqual([]);

    const before = await harness.db.order.count({ where: { customerId: customer.id } });
    await expect(
      harness.db.$transaction((tx) =>
        createOrder(tx, { ...base, items: [{ productName: 'x', quantity: 1, unitAmount: 10.5 }] }),
      ),
    ).rejects.toThrow();
    await expect(
      harness.db.$transaction((tx) =>
        createOrder(tx, { ...base, items: [{ productName: 'x', quantity: 0, unitAmount: 100 }] }),
      ),
    ).rejects.toThrow();
    await expect(
      harness.db.$transaction((tx) =>
        createOrder(tx, { ...base, discountTotal: 200, items: [{ productName: 'x', quantity: 1, unitAmount: 100 }] }),
      ),
    ).rejects.toThrow();
    expect(await harness.db.order.count({ where: { customerId: customer.id } })).toBe(before);
  });
});
