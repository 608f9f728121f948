import { checkoutCalls, useCheckoutShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { createCustomer, ok } from './commerceHelpers';

describe('checkout sessions over HTTP: totals', () => {
  const harness = useHarness();
  const shop = useCheckoutShop(harness);

  const { promotion, code, session } = checkoutCalls(harness, shop);

  describe('totals, computed server-side in minor units', () => {
    it('multi-quantity lines with a percentage promotion (basis points, rounded half up)', async () => {
      const customer = await createCustomer(harness, shop.merchant.token);
      const pct = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 1500 })).id);
      const answer = await session({
        customerId: customer.id,
        lineItems: [{ priceId: shop.eurPrice, quantity: 3 }],
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
          priceId: shop.eurPrice,
          quantity: 3,
          unitAmount: 1999,
          amountSubtotal: 5997,
          productName: 'Socks',
        }),
      ]);
      expect(await ok(harness, 'GET', `/checkout-sessions/${answer.body.id}`, shop.merchant.token)).toEqual(
        answer.body,
      );
    });

    it('a fixed-amount promotion in the session currency, never below zero', async () => {
      const customer = await createCustomer(harness, shop.merchant.token);
      const fixed = await code((await promotion({ discountType: 'fixed_amount', amountOff: 500, currency: 'USD' })).id);
      const small = await session({
        customerId: customer.id,
        currency: 'USD',
        lineItems: [{ priceId: shop.usdPrice, quantity: 1 }],
        promotionCodes: [fixed.code],
      });
      expect(small.body).toMatchObject({ subtotal: 300, discountTotal: 300, total: 0 });
      const big = await session({
        customerId: customer.id,
        currency: 'USD',
        lineItems: [{ priceId: shop.usdPrice, quantity: 4 }],
        promotionCodes: [fixed.code],
      });
      expect(big.body).toMatchObject({ subtotal: 1200, discountTotal: 500, total: 700 });
      // A USD amount off cannot apply to an EUR session: 400, and nothing is redeemed.
      const wrongCurrency = await session({
        customerId: customer.id,
        lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
        promotionCodes: [fixed.code],
      });
      expect(wrongCurrency.status).toBe(400);
      expect((await ok(harness, 'GET', `/promotion-codes/${fixed.id}`, shop.merchant.token)).timesRedeemed).toBe(2);
    });

    it('a zero-decimal currency (JPY) with a percentage promotion', async () => {
      const customer = await createCustomer(harness, shop.merchant.token);
      const pct = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 333 })).id);
      const answer = await session({
        customerId: customer.id,
        currency: 'JPY',
        lineItems: [{ priceId: shop.jpyPrice, quantity: 3 }],
        promotionCodes: [pct.code],
      });
      expect(answer.body).toMatchObject({ currency: 'JPY', subtotal: 4500, discountTotal: 150, total: 4350 });
    });

    it('refuses prices in another currency, unknown prices, unknown codes, and a currency the store does not sell in', async () => {
      const customer = await createCustomer(harness, shop.merchant.token);
      const cases: [Record<string, unknown>, string][] = [
        [{ customerId: customer.id, lineItems: [{ priceId: shop.jpyPrice, quantity: 1 }] }, 'CURRENCY_MISMATCH'],
        [{ customerId: customer.id, lineItems: [{ priceId: 'price_doesnotexist', quantity: 1 }] }, 'PRICE_NOT_FOUND'],
        [
          { customerId: customer.id, lineItems: [{ priceId: shop.eurPrice, quantity: 1 }], promotionCodes: ['NOPE'] },
          'PROMOTION_CODE_INVALID',
        ],
        [
          { customerId: customer.id, currency: 'GBP', lineItems: [{ priceId: shop.eurPrice, quantity: 1 }] },
          'CURRENCY_NOT_SUPPORTED',
        ],
      ];
      for (const [body, codeName] of cases) {
        const answer = await session(body);
        expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: codeName });
      }
      expect((await session({ lineItems: [{ priceId: shop.eurPrice, quantity: 1 }] })).status).toBe(400);
      expect(
        (await session({ customerId: customer.id, lineItems: [{ priceId: shop.eurPrice, quantity: 0 }] })).status,
      ).toBe(400);
    });

    it('creates the customer from customer details when no customerId is given, and reuses it by email', async () => {
      const email = `new-${Date.now()}@example.com`;
      const first = await session({
        customer: { email, firstName: 'Lin' },
        lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
      });
      const second = await session({ customer: { email }, lineItems: [{ priceId: shop.eurPrice, quantity: 1 }] });
      expect(first.status).toBe(200);
      expect(first.body.customer).toMatchObject({ email, name: 'Lin' });
      expect(second.body.customerId).toBe(first.body.customerId);
    });
  });
});
