import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, ok } from './commerceHelpers';

const ids = (list: { data: { id: string }[] }) => list.data.map((row) => row.id);

describe('customers over HTTP', () => {
  const harness = useHarness();
  const shop = useShop(harness);

  describe('customers', () => {
    it('creates, gets, lists with filters and updates a customer', async () => {
      const customer = await ok(harness, 'POST', '/customers', shop.merchant.token, {
        email: 'Grace@Example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
        storeId: shop.storeId,
      });
      expect(customer).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper', storeId: shop.storeId });
      expect(await ok(harness, 'GET', `/customers/${customer.id}`, shop.merchant.token)).toEqual(customer);
      const found = await ok(harness, 'POST', '/customers/list', shop.merchant.token, {
        filters: { email: { condition: 'contains', value: 'grace@' }, lastName: ['Hopper'] },
      });
      expect(ids(found)).toEqual([customer.id]);
      const updated = await ok(harness, 'POST', '/customers/update', shop.merchant.token, {
        id: customer.id,
        data: { phone: '+4915112345678', lastName: 'Brewster Hopper' },
      });
      expect(updated).toMatchObject({ phone: '+4915112345678', name: 'Grace Brewster Hopper' });
      const badEmail = await call(harness, 'POST', `${api}/customers`, {
        token: shop.merchant.token,
        body: { email: 'not-an-email' },
      });
      expect(badEmail.status).toBe(400);
    });

    it("hides another account's customers and test-mode customers from live keys", async () => {
      const customer = await createCustomer(harness, shop.merchant.token);
      for (const token of [shop.other.token, shop.liveToken]) {
        expect((await call(harness, 'GET', `${api}/customers/${customer.id}`, { token })).status).toBe(404);
        expect(
          (
            await call(harness, 'POST', `${api}/customers/update`, {
              token,
              body: { id: customer.id, data: { firstName: 'x' } },
            })
          ).status,
        ).toBe(404);
        expect(ids(await ok(harness, 'POST', '/customers/list', token, {}))).not.toContain(customer.id);
      }
    });
  });
});
