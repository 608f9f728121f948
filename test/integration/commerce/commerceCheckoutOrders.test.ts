import {
  CheckoutAlreadyPaidError,
  createOrder,
  createOrderForPaidCheckout,
  loadCheckoutForPayment,
} from '../../../src/commerce/orders';
import { toApiError } from '../../../src/http/core/errors';
import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createCheckoutShop, createCustomer, createStore, ok } from './commerceHelpers';

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

describe('checkout sessions over HTTP: paying a session and its order', () => {
  const harness = useHarness();
  const t = useTenants(harness);
  let storeId: string;
  let eurPrice: string;

  const session = (body: Record<string, unknown>, token = t.merchant.token) =>
    call(harness, 'POST', `${api}/checkout-sessions`, { token, body: { storeId, ...body } });

  beforeAll(async () => {
    ({ storeId, eurPrice } = await createCheckoutShop(harness, t.merchant.token));
  });

  describe('paying a session and the resulting order', () => {
    it('a paid session cannot be paid again, even by two concurrent payers; the order has its documented shape', async () => {
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
  const harness = useHarness();
  const t = useTenants(harness);

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
