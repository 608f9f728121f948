import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';

const manifest = {
  name: 'Upsell widget',
  version: '0.1.0',
  requirements: { sdkVersion: 'v2' },
  routes: [{ method: 'GET', path: '/widget', handler: 'render' }],
};
const allPermissions = ['read:source', 'write:deploy', 'read:manifest', 'write:manifest'];

describe('builder sessions over HTTP', () => {
  const harness = useHarness();
  const shop = useShop(harness);
  let deployment: { id: string; pluginId: string };
  beforeAll(async () => {
    const plugin = await ok(harness, 'POST', '/plugins/create', shop.merchant.token, {
      storeId: shop.storeId,
      manifest,
    });
    deployment = await ok(harness, 'POST', '/plugins/v2/deployments/create', shop.merchant.token, {
      storeId: shop.storeId,
      pluginId: plugin.id,
      instances: [{ name: 'Main' }],
    });
  });

  const open = (permissions: string[], extra: Record<string, unknown> = {}) =>
    ok(harness, 'POST', '/builder/sessions', shop.merchant.token, {
      deploymentId: deployment.id,
      storeId: shop.storeId,
      permissions,
      ...extra,
    });
  const builder = (method: string, path: string, token: string | undefined, body?: unknown) =>
    call(harness, method, `${api}/builder${path}`, { token, body });
  const operations: [string, string, string, unknown?][] = [
    ['read:source', 'GET', '/source'],
    ['write:deploy', 'POST', '/deploy', { files: [{ path: 'src/index.ts', content: 'export const render = 1;' }] }],
    ['read:manifest', 'GET', '/manifest'],
    ['write:manifest', 'PUT', '/manifest', { manifest: { ...manifest, version: '0.2.0' } }],
  ];

  it('answers {token, expiresAt, accountId, pluginId, deploymentId}; the token works on the builder routes', async () => {
    const session = await open(allPermissions);
    expect(session).toMatchObject({
      id: expect.stringMatching(/^bld_/),
      token: expect.stringMatching(/^bst_[0-9A-Za-z]{40}$/),
      accountId: shop.merchant.accountId,
      pluginId: deployment.pluginId,
      deploymentId: deployment.id,
      permissions: allPermissions,
    });
    const lifetime = Date.parse(session.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(800_000);
    expect(lifetime).toBeLessThanOrEqual(900_000);
    const stored = await harness.db.builderSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(stored.tokenHash).not.toContain(session.token.slice(4));

    expect((await builder('GET', '/source', session.token)).body).toMatchObject({ revision: 0, files: [] });
    const deployed = await builder('POST', '/deploy', session.token, operations[1]![3]);
    expect(deployed.body).toMatchObject({ revision: 1, files: [{ path: 'src/index.ts' }] });
    expect((await builder('GET', '/source', session.token)).body.revision).toBe(1);
    expect((await builder('GET', '/manifest', session.token)).body).toMatchObject({ version: '0.1.0' });
    const written = await builder('PUT', '/manifest', session.token, operations[3]![3]);
    expect(written.body).toMatchObject({ id: deployment.pluginId, version: '0.2.0', sdkVersion: 'v2' });
    const bad = await builder('PUT', '/manifest', session.token, { manifest: { ...manifest, mode: 'proxy-mode' } });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('each permission missing is 403 on its route, before the body is read', async () => {
    for (const [permission, method, path, body] of operations) {
      const session = await open(allPermissions.filter((granted) => granted !== permission));
      const answer = await builder(method, path, session.token, body === undefined ? undefined : { junk: true });
      expect({ route: `${method} ${path}`, status: answer.status, code: answer.body.code }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        code: 'BUILDER_PERMISSION_REQUIRED',
      });
    }
  });

  it('an expired, unknown or missing token is 401; a CRM key is not a builder token', async () => {
    const session = await open(allPermissions, { expiresInSeconds: 60 });
    await harness.db.builderSession.update({
      where: { id: session.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    for (const [, method, path, body] of operations) {
      const expired = await builder(method, path, session.token, body);
      expect({ status: expired.status, code: expired.body.code }).toEqual({
        status: 401,
        code: 'BUILDER_SESSION_EXPIRED',
      });
    }
    for (const token of [undefined, `bst_${'x'.repeat(40)}`, shop.merchant.token])
      expect((await builder('GET', '/source', token)).status).toBe(401);
    // The token opens nothing outside /builder.
    expect((await call(harness, 'POST', `${api}/plugins/list`, { token: session.token, body: {} })).status).toBe(401);
  });

  it('refuses unknown permissions (400) and deployments of other stores and tenants (404)', async () => {
    const bad = await call(harness, 'POST', `${api}/builder/sessions`, {
      token: shop.merchant.token,
      body: { deploymentId: deployment.id, storeId: shop.storeId, permissions: ['admin:all'] },
    });
    expect(bad.status).toBe(400);
    for (const token of [shop.other.token, shop.liveToken]) {
      const answer = await call(harness, 'POST', `${api}/builder/sessions`, {
        token,
        body: { deploymentId: deployment.id, storeId: shop.storeId, permissions: ['read:source'] },
      });
      expect(answer.status).toBe(404);
    }
  });
});
