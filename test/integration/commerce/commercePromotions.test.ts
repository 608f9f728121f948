import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from './commerceHelpers';

const ids = (list: { data: { id: string }[] }) => list.data.map((row) => row.id);

describe('promotions and promotion codes over HTTP', () => {
  const harness = useHarness();
  const shop = useShop(harness);

  describe('promotions and promotion codes', () => {
    it('creates, gets, lists and updates promotions and codes; /promotion-codes/update answers {id, code, active, usageLimit}', async () => {
      const promotion = await ok(harness, 'POST', '/promotions', shop.merchant.token, {
        storeId: shop.storeId,
        name: '10% off',
        discountType: 'percentage',
        percentBasisPoints: 1000,
      });
      expect(promotion).toMatchObject({
        discountType: 'percentage',
        percentBasisPoints: 1000,
        amountOff: null,
        active: true,
      });
      expect(await ok(harness, 'GET', `/promotions/${promotion.id}`, shop.merchant.token)).toEqual(promotion);
      expect(
        ids(
          await ok(harness, 'POST', '/promotions/list', shop.merchant.token, {
            filters: { discountType: 'percentage' },
          }),
        ),
      ).toContain(promotion.id);
      expect(
        (
          await ok(harness, 'POST', '/promotions/update', shop.merchant.token, {
            id: promotion.id,
            data: { name: 'Ten off' },
          })
        ).name,
      ).toBe('Ten off');

      const code = await ok(harness, 'POST', '/promotion-codes', shop.merchant.token, {
        promotionId: promotion.id,
        code: 'welcome10',
        usageLimit: 5,
      });
      expect(code).toMatchObject({
        code: 'WELCOME10',
        usageLimit: 5,
        timesRedeemed: 0,
        active: true,
        firstTimeCustomersOnly: false,
      });
      expect(await ok(harness, 'GET', `/promotion-codes/${code.id}`, shop.merchant.token)).toEqual(code);
      expect(
        ids(
          await ok(harness, 'POST', '/promotion-codes/list', shop.merchant.token, {
            filters: { code: { condition: 'starts-with', value: 'welc' } },
          }),
        ),
      ).toContain(code.id);

      const updated = await ok(harness, 'POST', '/promotion-codes/update', shop.merchant.token, {
        id: code.id,
        data: { code: 'WELCOME15', usageLimit: 20, active: false, firstTimeCustomersOnly: true },
      });
      expect(updated).toMatchObject({
        id: code.id,
        code: 'WELCOME15',
        active: false,
        usageLimit: 20,
        firstTimeCustomersOnly: true,
      });

      const duplicate = await call(harness, 'POST', `${api}/promotion-codes`, {
        token: shop.merchant.token,
        body: { promotionId: promotion.id, code: 'welcome15' },
      });
      expect(duplicate.status).toBe(409);
      const fixedWithoutCurrency = await call(harness, 'POST', `${api}/promotions`, {
        token: shop.merchant.token,
        body: { storeId: shop.storeId, name: 'x', discountType: 'fixed_amount', amountOff: 100 },
      });
      expect(fixedWithoutCurrency.status).toBe(400);
    });

    it("hides another account's promotions and codes, and test-mode ones from live keys", async () => {
      const promotion = await ok(harness, 'POST', '/promotions', shop.merchant.token, {
        storeId: shop.storeId,
        name: '5 off',
        discountType: 'fixed_amount',
        amountOff: 500,
        currency: 'EUR',
      });
      const code = await ok(harness, 'POST', '/promotion-codes', shop.merchant.token, {
        promotionId: promotion.id,
        code: `HIDDEN${Date.now()}`,
      });
      for (const token of [shop.other.token, shop.liveToken]) {
        expect((await call(harness, 'GET', `${api}/promotions/${promotion.id}`, { token })).status).toBe(404);
        expect((await call(harness, 'GET', `${api}/promotion-codes/${code.id}`, { token })).status).toBe(404);
        expect(
          (
            await call(harness, 'POST', `${api}/promotion-codes/update`, {
              token,
              body: { id: code.id, data: { active: false } },
            })
          ).status,
        ).toBe(404);
        expect(ids(await ok(harness, 'POST', '/promotion-codes/list', token, {}))).not.toContain(code.id);
        expect(ids(await ok(harness, 'POST', '/promotions/list', token, {}))).not.toContain(promotion.id);
      }
    });
  });
});
