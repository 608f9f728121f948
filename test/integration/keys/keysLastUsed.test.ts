import { createMerchant, usePartner } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';
import { startApi } from '../../../src/runtime/api';

const crmSide = '/api/public/v1/partner';

describe('partner provisioning: lastUsedAt of the keys it mints', () => {
  const harness = useHarness();
  const partner = usePartner(harness, { name: 'Acme Payments', mode: 'test' });

  const createMerchantVia = async (token: string, body: Record<string, unknown>) =>
    call(harness, 'POST', `${crmSide}/merchants`, { token, body });
  const mintCrmKey = async (token: string, accountId: string, body: Record<string, unknown> = {}) =>
    call(harness, 'POST', `${crmSide}/merchants/${accountId}/keys`, { token, body });

  it('records lastUsedAt after an authenticated call', async () => {
    const merchant = (await createMerchantVia(partner.token, { name: 'Used Shop' })).body;
    const key = (await mintCrmKey(partner.token, merchant.id)).body;
    const before = Date.now();
    expect((await call(harness, 'GET', '/api/public/v1/auth/test', { token: key.token })).status).toBe(200);
    // Written by the API's periodic flush: waited for, not slept on (a loaded machine flushes late).
    const lastUsedOf = (id: string) =>
      until(async () => (await harness.db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt ?? undefined, 10_000);
    const lastUsedAt = await lastUsedOf(key.id);
    expect(lastUsedAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(lastUsedAt.getTime()).toBeLessThanOrEqual(Date.now() + 5);
    // The partner key's own use is recorded too.
    // (Its calls came before `before`; `until` fails unless the column is set.)
    await expect(lastUsedOf(partner.keyId)).resolves.toBeDefined();
  });

  it('writes lastUsedAt when an API process stops, without waiting for the next flush', async () => {
    const merchant = await createMerchant(harness.db);
    const api = await startApi(
      {
        db: harness.db,
        temporal: harness.temporal,
        config: harness.config,
        logger: harness.logger,
        taskQueue: harness.taskQueue,
        sandboxUrl: harness.sandboxUrl,
      },
      0,
      '127.0.0.1',
    );
    expect((await call(api, 'GET', '/api/public/v1/auth/test', { token: merchant.token })).status).toBe(200);
    await api.stop();
    // Read at once: the periodic flush would come about a second later.
    expect((await harness.db.apiKey.findUniqueOrThrow({ where: { id: merchant.keyId } })).lastUsedAt).not.toBeNull();
  });
});
