import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createStore, ok } from './commerceHelpers';

describe('stores over HTTP', () => {
  const harness = useHarness();
  const t = useTenants(harness);

  /** A real payment flow (over one sandbox processor) made with the given key, so in its account and mode. */
  async function createFlow(token: string): Promise<string> {
    // The sandbox is test mode only: a live flow names a live Stripe processor.
    const live = token === t.liveToken;
    const processor = await ok(harness, 'POST', '/processors', token, {
      name: 'P',
      type: live ? 'stripe' : 'sandbox',
      credentials: live ? { secretKey: 'sk_live_abcdefghijkl' } : { merchantId: 'm' },
      supportedCurrencies: ['EUR'],
      baseCurrency: 'EUR',
    });
    return (
      await ok(harness, 'POST', '/payment-flows', token, {
        name: 'Flow',
        processorConfigs: [{ processorId: processor.id, weight: 1 }],
      })
    ).id;
  }

  it('creates, gets, lists and updates a store', async () => {
    const flowId = await createFlow(t.merchant.token);
    const store = await createStore(harness, t.merchant.token, { defaultPaymentFlowId: flowId });
    expect(store).toMatchObject({
      name: 'Shop',
      baseCurrency: 'EUR',
      presentmentCurrencies: ['EUR', 'USD', 'JPY'],
      defaultPaymentFlowId: flowId,
      mode: 'test',
    });
    expect(store.id).toMatch(/^store_/);

    expect(await ok(harness, 'GET', `/stores/${store.id}`, t.merchant.token)).toEqual(store);

    const list = await ok(harness, 'POST', '/stores/list', t.merchant.token, {
      filters: { name: { condition: 'contains', value: 'sho' } },
    });
    expect(list.data.map((s: { id: string }) => s.id)).toContain(store.id);
    expect(list.pagination).toMatchObject({ page: 1, pageSize: 20 });

    const updated = await ok(harness, 'POST', '/stores/update', t.merchant.token, {
      id: store.id,
      data: { name: 'Renamed', baseCurrency: 'GBP' },
    });
    expect(updated).toMatchObject({ id: store.id, name: 'Renamed', baseCurrency: 'GBP' });
    expect(updated.presentmentCurrencies).toEqual(expect.arrayContaining(['GBP', 'EUR', 'USD', 'JPY']));
  });

  it("refuses a default payment flow that is unknown, another account's or another mode's (404 PAYMENT_FLOW_NOT_FOUND), on create and update", async () => {
    const ownFlow = await createFlow(t.merchant.token);
    const foreignFlow = await createFlow(t.other.token);
    const liveFlow = await createFlow(t.liveToken);
    const store = await createStore(harness, t.merchant.token, { name: 'Flowed', defaultPaymentFlowId: ownFlow });
    const storesBefore = await harness.db.store.count({ where: { accountId: t.merchant.accountId } });
    for (const flowId of ['flow_doesnotexist', foreignFlow, liveFlow]) {
      const created = await call(harness, 'POST', `${api}/stores`, {
        token: t.merchant.token,
        body: { name: 'X', baseCurrency: 'EUR', defaultPaymentFlowId: flowId },
      });
      expect({ status: created.status, body: created.body }).toEqual({
        status: 404,
        body: { code: 'PAYMENT_FLOW_NOT_FOUND', message: expect.stringContaining('defaultPaymentFlowId') },
      });
      const updated = await call(harness, 'POST', `${api}/stores/update`, {
        token: t.merchant.token,
        body: { id: store.id, data: { defaultPaymentFlowId: flowId } },
      });
      expect({ status: updated.status, code: updated.body.code }).toEqual({
        status: 404,
        code: 'PAYMENT_FLOW_NOT_FOUND',
      });
    }
    expect(await harness.db.store.count({ where: { accountId: t.merchant.accountId } })).toBe(storesBefore);
    expect((await ok(harness, 'GET', `/stores/${store.id}`, t.merchant.token)).defaultPaymentFlowId).toBe(ownFlow);
    // The live key's own flow works for a live store; null clears the default.
    expect((await createStore(harness, t.liveToken, { defaultPaymentFlowId: liveFlow })).defaultPaymentFlowId).toBe(
      liveFlow,
    );
    expect(
      (
        await ok(harness, 'POST', '/stores/update', t.merchant.token, {
          id: store.id,
          data: { defaultPaymentFlowId: null },
        })
      ).defaultPaymentFlowId,
    ).toBeNull();
  });

  it('rejects an unsupported currency and unknown properties with 400', async () => {
    const bad = await call(harness, 'POST', `${api}/stores`, {
      token: t.merchant.token,
      body: { name: 'X', baseCurrency: 'XXX' },
    });
    expect(bad.status).toBe(400);
    const extra = await call(harness, 'POST', `${api}/stores`, {
      token: t.merchant.token,
      body: { name: 'X', baseCurrency: 'EUR', secret: 1 },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe('VALIDATION_ERROR');
  });

  it("hides another account's store and test-mode stores from live keys (404, absent from lists)", async () => {
    const store = await createStore(harness, t.merchant.token);
    for (const token of [t.other.token, t.liveToken]) {
      expect((await call(harness, 'GET', `${api}/stores/${store.id}`, { token })).status).toBe(404);
      const update = await call(harness, 'POST', `${api}/stores/update`, {
        token,
        body: { id: store.id, data: { name: 'Hijack' } },
      });
      expect(update.status).toBe(404);
      const list = await ok(harness, 'POST', '/stores/list', token, {});
      expect(list.data.map((s: { id: string }) => s.id)).not.toContain(store.id);
    }
    expect((await ok(harness, 'GET', `/stores/${store.id}`, t.merchant.token)).name).toBe('Shop');
  });
});
