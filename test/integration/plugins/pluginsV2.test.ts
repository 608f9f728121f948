import { forkInstance } from '../../../src/plugins/fork';
import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createStore, ok } from '../commerce/commerceHelpers';

const manifest = {
  name: 'Reviews',
  version: '1.0.0',
  requirements: { sdkVersion: 'v2' },
  routes: [
    { method: 'GET', path: '/reviews', handler: 'listReviews' },
    { method: 'POST', path: '/reviews', handler: 'addReview' },
  ],
};

describe('plugins and plugins v2 over HTTP', () => {
  const harness = useHarness();
  const shop = useShop(harness);
  let pluginId: string;
  let deployment: any;
  beforeAll(async () => {
    pluginId = (await ok(harness, 'POST', '/plugins/create', shop.merchant.token, { storeId: shop.storeId, manifest }))
      .id;
    deployment = await ok(harness, 'POST', '/plugins/v2/deployments/create', shop.merchant.token, {
      storeId: shop.storeId,
      pluginId,
      instances: [{ name: 'Main', config: { stars: 5, theme: { color: 'blue' } } }],
    });
  });

  const instancesOf = (deploymentId: string) =>
    harness.db.pluginDeploymentInstance.findMany({ where: { deploymentId }, include: { routes: true } });

  it('registers a plugin from a validated manifest (direct-mode by default); refuses a bad one with 400', async () => {
    const plugin = await ok(harness, 'GET', `/plugins/${pluginId}`, shop.merchant.token);
    expect(plugin).toMatchObject({ id: expect.stringMatching(/^plg_/), sdkVersion: 'v2', runMode: 'direct-mode' });
    const proxy = await ok(harness, 'POST', '/plugins/create', shop.merchant.token, {
      storeId: shop.storeId,
      manifest: { ...manifest, mode: 'proxy-mode', upstreamUrl: 'https://p.example.com', routes: [] },
    });
    expect(proxy).toMatchObject({ runMode: 'proxy-mode', sdkVersion: 'v2' });
    const listed = await ok(harness, 'POST', '/plugins/list', shop.merchant.token, {
      filters: { runMode: 'proxy-mode' },
    });
    expect(listed.data.map((row: { id: string }) => row.id)).toEqual([proxy.id]);
    const bad = await call(harness, 'POST', `${api}/plugins/create`, {
      token: shop.merchant.token,
      body: { storeId: shop.storeId, manifest: { ...manifest, requirements: { sdkVersion: 'v3' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe('manifest.requirements.sdkVersion');
  });

  it('deployment/details answers the deployment with its instances and routes; other stores and tenants get 404', async () => {
    const details = await ok(harness, 'POST', '/plugins/v2/deployment/details', shop.merchant.token, {
      deploymentId: deployment.id,
      storeId: shop.storeId,
    });
    expect(details).toEqual(deployment);
    expect(details.instances).toHaveLength(1);
    expect(details.instances[0]).toMatchObject({
      status: 'live',
      config: { stars: 5, theme: { color: 'blue' } },
      routes: [
        { method: 'GET', path: '/reviews', handler: 'listReviews' },
        { method: 'POST', path: '/reviews', handler: 'addReview' },
      ],
    });
    const otherStore = (await createStore(harness, shop.merchant.token, { name: 'Other' })).id;
    for (const [token, store] of [
      [shop.merchant.token, otherStore],
      [shop.other.token, shop.storeId],
      [shop.liveToken, shop.storeId],
    ] as const) {
      const answer = await call(harness, 'POST', `${api}/plugins/v2/deployment/details`, {
        token,
        body: { deploymentId: deployment.id, storeId: store },
      });
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    const malformed = await call(harness, 'POST', `${api}/plugins/v2/deployment/details`, {
      token: shop.merchant.token,
      body: { deploymentId: 'dpi_x', storeId: shop.storeId },
    });
    expect(malformed.status).toBe(400);
  });

  it('fork copies the instance, its config and its routes into a draft', async () => {
    const source = deployment.instances[0];
    const fork = await ok(harness, 'POST', '/plugins/v2/fork', shop.merchant.token, {
      deploymentInstanceId: source.id,
      storeId: shop.storeId,
    });
    expect(fork).toMatchObject({
      id: expect.stringMatching(/^dpi_/),
      deploymentId: deployment.id,
      status: 'draft',
      forkedFromId: source.id,
      config: source.config,
      routes: source.routes.map(({ method, path, handler }: Record<string, string>) => ({ method, path, handler })),
    });
    expect(fork.routes.map((route: { id: string }) => route.id)).not.toEqual(
      source.routes.map((route: { id: string }) => route.id),
    );
    const wrongStore = await call(harness, 'POST', `${api}/plugins/v2/fork`, {
      token: shop.other.token,
      body: { deploymentInstanceId: source.id, storeId: shop.storeId },
    });
    expect(wrongStore.status).toBe(404);
  });

  it('a fork failing after the instance insert leaves nothing behind (one transaction)', async () => {
    const source = deployment.instances[0];
    const before = await instancesOf(deployment.id);
    let insertedId: string | undefined;
    await expect(
      forkInstance(
        harness.db,
        { accountId: shop.merchant.accountId, mode: 'test' },
        { deploymentInstanceId: source.id, storeId: shop.storeId },
        {
          afterInstanceInsert: async (tx, instanceId) => {
            insertedId = instanceId;
            // Inside the transaction the instance exists…
            expect(await tx.pluginDeploymentInstance.count({ where: { id: instanceId } })).toBe(1);
            throw new Error('injected failure mid-fork');
          },
        },
      ),
    ).rejects.toThrow('injected failure mid-fork');
    expect(insertedId).toMatch(/^dpi_/);
    // …and after the failure neither it nor any route of it does.
    expect(await harness.db.pluginDeploymentInstance.count({ where: { id: insertedId } })).toBe(0);
    expect(await harness.db.pluginRoute.count({ where: { instanceId: insertedId } })).toBe(0);
    expect(await instancesOf(deployment.id)).toEqual(before);
  });

  it('10 concurrent forks with one Idempotency-Key make one fork; without a key each is a fork', async () => {
    const source = deployment.instances[0];
    const count = async () => (await instancesOf(deployment.id)).length;
    const fork = (headers: Record<string, string>) =>
      call(harness, 'POST', `${api}/plugins/v2/fork`, {
        token: shop.merchant.token,
        headers,
        body: { deploymentInstanceId: source.id, storeId: shop.storeId },
      });
    const start = await count();
    const keyed = await Promise.all(Array.from({ length: 10 }, () => fork({ 'idempotency-key': `fork-${start}` })));
    const succeeded = keyed.filter((answer) => answer.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(keyed.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    expect(new Set(succeeded.map((answer) => answer.body.id)).size).toBe(1);
    expect(await count()).toBe(start + 1);
    const unkeyed = await Promise.all(Array.from({ length: 3 }, () => fork({})));
    expect(unkeyed.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await count()).toBe(start + 4);
    for (const instance of await instancesOf(deployment.id)) expect(instance.routes).toHaveLength(2);
  });
});
