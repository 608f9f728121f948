import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, createStore, createTenants, ok, type Tenants } from './commerceHelpers';

const ids = (list: { data: { id: string }[] }) => list.data.map((row) => row.id);

describe('customers over HTTP', () => {
  const harness = useHarness();
  let t: Tenants;
  let storeId: string;
  beforeAll(async () => {
    t = await createTenants(harness);
    storeId = (await createStore(harness, t.merchant.token)).id;
  });

  describe('customers', () => {
    it('creates, gets, lists with filters and updates a customer', async () => {
      const customer = await ok(harness, 'POST', '/customers', t.merchant.token, {
        email: 'Grace@Example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
        storeId,
      });
      expect(customer).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper', storeId });
      expect(await ok(harness, 'GET', `/customers/${customer.id}`, t.merchant.token)).toEqual(customer);
      const found = await ok(harness, 'POST', '/customers/list', t.merchant.token, {
        filters: { email: { condition: 'contains', value: 'grace@' }, lastName: ['Hopper'] },
      });
      expect(ids(found)).toEqual([customer.id]);
      const updated = await ok(harness, 'POST', '/customers/update', t.merchant.token, {
        id: customer.id,
        data: { phone: '+4915112345678', lastName: 'Brewster Hopper' },
      });
      expect(updated).toMatchObject({ phone: '+4915112345678', name: 'Grace Brewster Hopper' });
      const badEmail = await call(harness, 'POST', `${api}/customers`, {
        token: t.merchant.token,
        body: { email: 'not-an-email' },
      });
      expect(badEmail.status).toBe(400);
    });

    it("hides another account's customers and test-mode customers from live keys", async () => {
      const customer = await createCustomer(harness, t.merchant.token);
      for (const token of [t.other.token, t.liveToken]) {
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
