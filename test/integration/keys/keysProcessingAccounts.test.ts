import { createPartner, usePartner } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { mintApiKey } from '../../../src/keys/mintKey';

const crmSide = '/api/public/v1/partner';
const processingSide = '/api/processing/v1/partner';

describe('partner provisioning: processing accounts and processing keys', () => {
  const harness = useHarness();
  const partner = usePartner(harness, { name: 'Acme Payments', mode: 'test' });
  const otherPartner = usePartner(harness, { name: 'Other Partner', mode: 'test' });

  const createMerchantVia = async (token: string, body: Record<string, unknown>) =>
    call(harness, 'POST', `${crmSide}/merchants`, { token, body });
  const mintCrmKey = async (token: string, accountId: string, body: Record<string, unknown> = {}) =>
    call(harness, 'POST', `${crmSide}/merchants/${accountId}/keys`, { token, body });

  describe('processing side', () => {
    const createStoreFor = async (partnerToken: string, accountId: string, mode: 'test' | 'live' = 'test') => {
      const crm = (await mintCrmKey(partnerToken, accountId, { mode })).body.token;
      const store = await call(harness, 'POST', '/api/public/v1/stores', {
        token: crm,
        body: { name: 'Store', baseCurrency: 'EUR' },
      });
      expect(store.status).toBe(200);
      return store.body.id as string;
    };

    it('creates a processing account and mints a labelled processing key that works on the processing API', async () => {
      const merchant = (
        await createMerchantVia(partner.token, { name: 'Processing Shop', externalRef: `ext-${Date.now()}` })
      ).body;
      const storeId = await createStoreFor(partner.token, merchant.id);
      const tpa = await call(harness, 'POST', `${processingSide}/tpas`, {
        token: partner.token,
        body: { accountId: merchant.id, storeId },
      });
      expect(tpa.status).toBe(201);
      expect(tpa.body).toMatchObject({
        object: 'processing_account',
        accountId: merchant.id,
        storeIds: [storeId],
        mode: 'test',
      });
      expect(tpa.body.id).toMatch(/^tpa_/);

      const key = await call(harness, 'POST', `${processingSide}/tpas/${tpa.body.id}/keys`, {
        token: partner.token,
        body: {},
      });
      expect(key.status).toBe(201);
      expect(key.body).toEqual({
        object: 'processing_key',
        id: expect.stringMatching(/^key_/),
        tpaId: tpa.body.id,
        prefix: key.body.secret.slice(0, 12),
        last4: key.body.secret.slice(-4),
        display: `${key.body.secret.slice(0, 12)}…${key.body.secret.slice(-4)}`,
        secret: expect.stringMatching(/^tp_sk_test_[0-9A-Za-z]{40}$/),
        label: `Acme Payments ${merchant.externalRef}`,
        status: 'active',
        mode: 'test',
        lastUsedAt: null,
        revokedAt: null,
        createdAt: expect.any(String),
      });

      const check = await call(harness, 'GET', '/api/processing/v1/auth/test', { token: key.body.secret });
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({
        keyType: 'processing',
        tpaId: tpa.body.id,
        storeIds: [storeId],
        account: { id: merchant.id },
      });

      const keys = await call(harness, 'GET', `${processingSide}/tpas/${tpa.body.id}/keys`, { token: partner.token });
      expect(keys.body.data).toEqual([expect.objectContaining({ id: key.body.id, prefix: key.body.prefix })]);
      expect(keys.body.data[0]).not.toHaveProperty('secret');

      const revoked = await call(harness, 'POST', `${processingSide}/tpas/${tpa.body.id}/keys/${key.body.id}/revoke`, {
        token: partner.token,
      });
      expect(revoked.body.status).toBe('revoked');
      expect((await call(harness, 'GET', '/api/processing/v1/auth/test', { token: key.body.secret })).status).toBe(401);
    });

    it('labels with the account id when there is no external reference', async () => {
      const merchant = (await createMerchantVia(partner.token, { name: 'Unreferenced' })).body;
      const storeId = await createStoreFor(partner.token, merchant.id);
      const tpa = (
        await call(harness, 'POST', `${processingSide}/tpas`, {
          token: partner.token,
          body: { accountId: merchant.id, storeIds: [storeId] },
        })
      ).body;
      const key = (
        await call(harness, 'POST', `${processingSide}/tpas/${tpa.id}/keys`, { token: partner.token, body: {} })
      ).body;
      expect(key.label).toBe(`Acme Payments ${merchant.id}`);
    });

    it('answers 403 payfac_required to a CRM-only partner', async () => {
      const crmOnly = await createPartner(harness.db, { kind: 'crm_only' });
      const merchant = (await createMerchantVia(crmOnly.token, { name: 'CRM only shop' })).body;
      const storeId = await createStoreFor(crmOnly.token, merchant.id);
      const answer = await call(harness, 'POST', `${processingSide}/tpas`, {
        token: crmOnly.token,
        body: { accountId: merchant.id, storeId },
      });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('payfac_required');
      expect(await harness.db.processingAccount.count({ where: { partnerId: crmOnly.partnerId } })).toBe(0);
    });

    it("refuses another account's store, and another partner's account", async () => {
      const merchant = (await createMerchantVia(partner.token, { name: 'Mine' })).body;
      const foreign = (await createMerchantVia(partner.token, { name: 'Sibling' })).body;
      const foreignStore = await createStoreFor(partner.token, foreign.id);
      const wrongStore = await call(harness, 'POST', `${processingSide}/tpas`, {
        token: partner.token,
        body: { accountId: merchant.id, storeId: foreignStore },
      });
      expect(wrongStore.status).toBe(400);
      expect(wrongStore.body.code).toBe('STORE_NOT_IN_ACCOUNT');

      const theirs = (await createMerchantVia(otherPartner.token, { name: 'Theirs' })).body;
      const theirStore = await createStoreFor(otherPartner.token, theirs.id);
      const foreignAccount = await call(harness, 'POST', `${processingSide}/tpas`, {
        token: partner.token,
        body: { accountId: theirs.id, storeId: theirStore },
      });
      expect(foreignAccount.status).toBe(404);
    });

    it("hides another partner's processing accounts, and live ones from a test partner key", async () => {
      const theirs = (await createMerchantVia(otherPartner.token, { name: 'Theirs 2' })).body;
      const theirStore = await createStoreFor(otherPartner.token, theirs.id);
      const theirTpa = (
        await call(harness, 'POST', `${processingSide}/tpas`, {
          token: otherPartner.token,
          body: { accountId: theirs.id, storeId: theirStore },
        })
      ).body;
      expect(
        (await call(harness, 'GET', `${processingSide}/tpas/${theirTpa.id}`, { token: partner.token })).status,
      ).toBe(404);
      expect(
        (await call(harness, 'POST', `${processingSide}/tpas/${theirTpa.id}/keys`, { token: partner.token, body: {} }))
          .status,
      ).toBe(404);
      const mine = await call(harness, 'GET', `${processingSide}/tpas?pageSize=100`, { token: partner.token });
      expect(mine.body.data.map((t: { id: string }) => t.id)).not.toContain(theirTpa.id);

      // One partner, a live key and a test key: the test key does not see live processing accounts.
      const livePartner = await createPartner(harness.db, { mode: 'live' });
      const testKeyOfLivePartner = (
        await mintApiKey(harness.db, {
          kind: 'partner',
          mode: 'test',
          name: 'test key',
          partnerId: livePartner.partnerId,
        })
      ).token;
      const merchant = (await createMerchantVia(livePartner.token, { name: 'Live Merchant' })).body;
      const liveStore = await createStoreFor(livePartner.token, merchant.id, 'live');
      const liveTpa = await call(harness, 'POST', `${processingSide}/tpas`, {
        token: livePartner.token,
        body: { accountId: merchant.id, storeId: liveStore },
      });
      expect(liveTpa.body.mode).toBe('live');
      expect(
        (await call(harness, 'GET', `${processingSide}/tpas/${liveTpa.body.id}`, { token: testKeyOfLivePartner }))
          .status,
      ).toBe(404);
      const escalation = await call(harness, 'POST', `${processingSide}/tpas`, {
        token: testKeyOfLivePartner,
        body: { accountId: merchant.id, storeId: liveStore, mode: 'live' },
      });
      expect(escalation.status).toBe(403);
      expect(escalation.body.code).toBe('mode_escalation_forbidden');
      // A test processing account cannot take the live store either.
      const testOnLive = await call(harness, 'POST', `${processingSide}/tpas`, {
        token: testKeyOfLivePartner,
        body: { accountId: merchant.id, storeId: liveStore },
      });
      expect(testOnLive.status).toBe(400);
    });
  });

  it('documents the provisioning and auth-test routes in the OpenAPI document', async () => {
    const doc = (await call(harness, 'GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/api/public/v1/partner/merchants', 'post'],
      ['/api/public/v1/partner/merchants', 'get'],
      ['/api/public/v1/partner/merchants/{accountId}/keys', 'post'],
      ['/api/public/v1/partner/merchants/{accountId}/keys/{keyId}/revoke', 'post'],
      ['/api/processing/v1/partner/tpas', 'post'],
      ['/api/processing/v1/partner/tpas/{tpaId}/keys', 'post'],
      ['/api/processing/v1/partner/tpas/{tpaId}/keys/{keyId}/revoke', 'post'],
      ['/api/public/v1/auth/test', 'get'],
    ] as const) {
      expect({ path, method, documented: Boolean(doc.paths[path]?.[method]?.responses) }).toEqual({
        path,
        method,
        documented: true,
      });
    }
  });
});
