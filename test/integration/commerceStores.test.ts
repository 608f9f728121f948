import { call, startHarness, type Harness } from '../helpers/harness';
import { api, createStore, createTenants, ok, type Tenants } from './commerceHelpers';

describe('stores over HTTP', () => {
  let harness: Harness;
  let t: Tenants;
  beforeAll(async () => {
    harness = await startHarness();
    t = await createTenants(harness);
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('creates, gets, lists and updates a store', async () => {
    const store = await createStore(harness, t.merchant.token, { defaultPaymentFlowId: 'flow_abc123' });
    expect(store).toMatchObject({ name: 'Shop', baseCurrency: 'EUR', presentmentCurrencies: ['EUR', 'USD', 'JPY'], defaultPaymentFlowId: 'flow_abc123', mode: 'test' });
    expect(store.id).toMatch(/^store_/);

    expect(await ok(harness, 'GET', `/stores/${store.id}`, t.merchant.token)).toEqual(store);

    const list = await ok(harness, 'POST', '/stores/list', t.merchant.token, { filters: { name: { condition: 'contains', value: 'sho' } } });
    expect(list.data.map((s: { id: string }) => s.id)).toContain(store.id);
    expect(list.pagination).toMatchObject({ page: 1, pageSize: 20 });

    const updated = await ok(harness, 'POST', '/stores/update', t.merchant.token, { id: store.id, data: { name: 'Renamed', baseCurrency: 'GBP' } });
    expect(updated).toMatchObject({ id: store.id, name: 'Renamed', baseCurrency: 'GBP' });
    expect(updated.presentmentCurrencies).toEqual(expect.arrayContaining(['GBP', 'EUR', 'USD', 'JPY']));
  });

  it('rejects an unsupported currency and unknown properties with 400', async () => {
    const bad = await call(harness, 'POST', `${api}/stores`, { token: t.merchant.token, body: { name: 'X', baseCurrency: 'XXX' } });
    expect(bad.status).toBe(400);
    const extra = await call(harness, 'POST', `${api}/stores`, { token: t.merchant.token, body: { name: 'X', baseCurrency: 'EUR', secret: 1 } });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe('VALIDATION_ERROR');
  });

  it("hides another account's store and test-mode stores from live keys (404, absent from lists)", async () => {
    const store = await createStore(harness, t.merchant.token);
    for (const token of [t.other.token, t.liveToken]) {
      expect((await call(harness, 'GET', `${api}/stores/${store.id}`, { token })).status).toBe(404);
      const update = await call(harness, 'POST', `${api}/stores/update`, { token, body: { id: store.id, data: { name: 'Hijack' } } });
      expect(update.status).toBe(404);
      const list = await ok(harness, 'POST', '/stores/list', token, {});
      expect(list.data.map((s: { id: string }) => s.id)).not.toContain(store.id);
    }
    expect((await ok(harness, 'GET', `/stores/${store.id}`, t.merchant.token)).name).toBe('Shop');
  });
});
