import { createOrderForPaidCheckout } from '../../../src/commerce/orders';
import { call } from '../../helpers/harness';
import { checkoutCalls, useCheckoutShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, ok } from './commerceHelpers';

describe('checkout sessions over HTTP: promotion code limits', () => {
  const harness = useHarness();
  const shop = useCheckoutShop(harness);

  const { promotion, code, session } = checkoutCalls(harness, shop);

  describe('promotion code limits under concurrency', () => {
    it('50 concurrent redemptions of a code limited to 10 give exactly 10 sessions, and nothing half-written', async () => {
      const limited = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 1000 })).id, {
        usageLimit: 10,
      });
      const customer = await createCustomer(harness, shop.merchant.token);
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          session({
            customerId: customer.id,
            lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
            promotionCodes: [limited.code],
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 409)).toHaveLength(40);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('PROMOTION_CODE_LIMIT_REACHED');
      expect((await ok(harness, 'GET', `/promotion-codes/${limited.id}`, shop.merchant.token)).timesRedeemed).toBe(10);
      expect(await harness.db.promotionRedemption.count({ where: { promotionCodeId: limited.id } })).toBe(10);
      expect(await harness.db.checkoutSession.count({ where: { customerId: customer.id } })).toBe(10);
    });

    it('first-time-only codes: refused after an order, and 10 concurrent tries by one new customer give exactly 1', async () => {
      const firstTime = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 2000 })).id, {
        firstTimeCustomersOnly: true,
      });
      const fresh = await createCustomer(harness, shop.merchant.token);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          session({
            customerId: fresh.id,
            lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
            promotionCodes: [firstTime.code],
          }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body.code)).toEqual(
        Array(9).fill('PROMOTION_CODE_FIRST_TIME_ONLY'),
      );

      const returning = await createCustomer(harness, shop.merchant.token);
      const plain = await session({ customerId: returning.id, lineItems: [{ priceId: shop.eurPrice, quantity: 1 }] });
      await harness.db.$transaction((tx) =>
        createOrderForPaidCheckout(tx, { checkoutSessionId: plain.body.id, paymentId: 'pay_test1' }),
      );
      const refused = await session({
        customerId: returning.id,
        lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
        promotionCodes: [firstTime.code],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('PROMOTION_CODE_FIRST_TIME_ONLY');
    });

    it('expiring an unpaid session gives its redemption back; a deactivated code is refused', async () => {
      const limited = await code((await promotion({ discountType: 'percentage', percentBasisPoints: 1000 })).id, {
        usageLimit: 1,
      });
      const customer = await createCustomer(harness, shop.merchant.token);
      const first = await session({
        customerId: customer.id,
        lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
        promotionCodes: [limited.code],
      });
      expect(
        (
          await session({
            customerId: customer.id,
            lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
            promotionCodes: [limited.code],
          })
        ).status,
      ).toBe(409);
      const expired = await ok(harness, 'POST', '/checkout-sessions/expire', shop.merchant.token, {
        id: first.body.id,
      });
      expect(expired.status).toBe('expired');
      const expiredEvent = await harness.db.event.findFirst({
        where: { accountId: shop.merchant.accountId, eventType: 's_checkout_session_expired' },
      });
      expect(expiredEvent?.properties).toMatchObject({ checkoutSessionId: first.body.id });
      expect(
        (
          await call(harness, 'POST', `${api}/checkout-sessions/expire`, {
            token: shop.merchant.token,
            body: { id: first.body.id },
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await session({
            customerId: customer.id,
            lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
            promotionCodes: [limited.code],
          })
        ).status,
      ).toBe(200);

      // A session past its expiry reads as expired, in GET and in list filters, before anything flips it.
      const overdue = await session({ customerId: customer.id, lineItems: [{ priceId: shop.eurPrice, quantity: 1 }] });
      await harness.db.checkoutSession.update({
        where: { id: overdue.body.id },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      expect((await ok(harness, 'GET', `/checkout-sessions/${overdue.body.id}`, shop.merchant.token)).status).toBe(
        'expired',
      );
      const listIds = async (status: unknown) =>
        (
          await ok(harness, 'POST', '/checkout-sessions/list', shop.merchant.token, {
            filters: { customerId: customer.id, status },
          })
        ).data.map((row: { id: string }) => row.id);
      expect(await listIds('expired')).toEqual(expect.arrayContaining([overdue.body.id, first.body.id]));
      expect(await listIds('open')).not.toContain(overdue.body.id);
      expect(await listIds(['open', 'paid'])).not.toContain(overdue.body.id);
      expect(await listIds({ condition: 'not-equals', value: 'open' })).toContain(overdue.body.id);

      await ok(harness, 'POST', '/promotion-codes/update', shop.merchant.token, {
        id: limited.id,
        data: { active: false, usageLimit: 5 },
      });
      const inactive = await session({
        customerId: customer.id,
        lineItems: [{ priceId: shop.eurPrice, quantity: 1 }],
        promotionCodes: [limited.code],
      });
      expect(inactive.body.code).toBe('PROMOTION_CODE_INACTIVE');
    });
  });
});
