import { createPartner, addLegacyCrmKey, createMerchant, type PartnerFixture } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { mintApiKey } from '../../../src/keys/mintKey';
import { startApi } from '../../../src/runtime/api';

const crmSide = '/api/public/v1/partner';
const processingSide = '/api/processing/v1/partner';

describe('partner provisioning: merchants, CRM keys, processing accounts, processing keys', () => {
  let harness: Harness;
  let partner: PartnerFixture;
  let otherPartner: PartnerFixture;

  beforeAll(async () => {
    harness = await startHarness();
    partner = await createPartner(harness.db, { name: 'Acme Payments', mode: 'test' });
    otherPartner = await createPartner(harness.db, { name: 'Other Partner', mode: 'test' });
  });
  afterAll(async () => {
    await harness?.stop();
  });

  const createMerchantVia = async (token: string, body: Record<string, unknown>) =>
    call(harness, 'POST', `${crmSide}/merchants`, { token, body });
  const mintCrmKey = async (token: string, accountId: string, body: Record<string, unknown> = {}) =>
    call(harness, 'POST', `${crmSide}/merchants/${accountId}/keys`, { token, body });

  it('creates a merchant account, idempotent on externalRef, and lists only its own', async () => {
    const externalRef = `crm-${Date.now()}`;
    const first = await createMerchantVia(partner.token, { name: 'Shop One', externalRef, plan: 'premium' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'merchant',
      name: 'Shop One',
      externalRef,
      plan: 'premium',
      created: true,
    });
    expect(first.body.id).toMatch(/^acc_/);

    const replay = await createMerchantVia(partner.token, { name: 'Shop One again', externalRef });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ id: first.body.id, name: 'Shop One', created: false });

    // Another partner may use the same externalRef: it is scoped per partner.
    const theirs = await createMerchantVia(otherPartner.token, { name: 'Their Shop', externalRef });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);

    const noRef = await createMerchantVia(partner.token, { name: 'No Ref' });
    expect(noRef.body).toMatchObject({ created: true, externalRef: null, plan: 'standard' });

    const list = await call(harness, 'GET', `${crmSide}/merchants?pageSize=100`, { token: partner.token });
    expect(list.status).toBe(200);
    const ids = list.body.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining([first.body.id, noRef.body.id]));
    expect(ids).not.toContain(theirs.body.id);
    expect(list.body.pagination).toMatchObject({ page: 1, pageSize: 100 });
  });

  it('rejects bad merchant input with 400', async () => {
    const answer = await createMerchantVia(partner.token, { name: '', plan: 'gold' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
  });

  it('mints a CRM key: the token once, then prefix only; the key works on the public API', async () => {
    const merchant = (await createMerchantVia(partner.token, { name: 'Keyed Shop' })).body;
    const minted = await mintCrmKey(partner.token, merchant.id, { name: 'backend' });
    expect(minted.status).toBe(201);
    expect(minted.body).toEqual({
      object: 'crm_key',
      id: expect.stringMatching(/^key_/),
      accountId: merchant.id,
      prefix: minted.body.token.slice(0, 12),
      last4: minted.body.token.slice(-4),
      display: `${minted.body.token.slice(0, 12)}…${minted.body.token.slice(-4)}`,
      token: expect.stringMatching(/^sk_crm_test_[0-9A-Za-z]{40}$/),
      name: 'backend',
      role: 'org:admin',
      mode: 'test',
      status: 'active',
      lastUsedAt: null,
      revokedAt: null,
      createdAt: expect.any(String),
    });

    const check = await call(harness, 'GET', '/api/public/v1/auth/test', { token: minted.body.token });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({
      ok: true,
      keyType: 'crm',
      mode: 'test',
      role: 'org:admin',
      keyId: minted.body.id,
      account: { id: merchant.id, name: 'Keyed Shop' },
    });

    const list = await call(harness, 'GET', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: minted.body.id, prefix: minted.body.prefix });
    expect(list.body.data[0]).not.toHaveProperty('token');
    expect(JSON.stringify(list.body)).not.toContain(minted.body.token);
  });

  it('records lastUsedAt after an authenticated call', async () => {
    const merchant = (await createMerchantVia(partner.token, { name: 'Used Shop' })).body;
    const key = (await mintCrmKey(partner.token, merchant.id)).body;
    const before = Date.now();
    expect((await call(harness, 'GET', '/api/public/v1/auth/test', { token: key.token })).status).toBe(200);
    let lastUsedAt: Date | null = null;
    for (let i = 0; i < 50 && !lastUsedAt; i++) {
      lastUsedAt = (await harness.db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
      if (!lastUsedAt) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(lastUsedAt).not.toBeNull();
    expect(lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(lastUsedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 5);
    // The partner key's own use is recorded too.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await harness.db.apiKey.findUniqueOrThrow({ where: { id: partner.keyId } })).lastUsedAt).not.toBeNull();
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

  it('mints org:member keys that get 403 on org:admin operations', async () => {
    const merchant = (await createMerchantVia(partner.token, { name: 'Member Shop' })).body;
    const member = (await mintCrmKey(partner.token, merchant.id, { role: 'org:member' })).body;
    expect(member.role).toBe('org:member');
    const adminOnly = await call(harness, 'POST', '/api/public/v1/events/recent', {
      token: member.token,
      body: { limit: 5 },
    });
    expect(adminOnly.status).toBe(403);
    expect((await call(harness, 'GET', '/api/public/v1/auth/test', { token: member.token })).body.role).toBe(
      'org:member',
    );
    const admin = (await mintCrmKey(partner.token, merchant.id)).body;
    expect(
      (await call(harness, 'POST', '/api/public/v1/events/recent', { token: admin.token, body: { limit: 5 } })).status,
    ).toBe(200);
  });

  it('refuses live keys to a test partner key (403 mode_escalation_forbidden); a live partner key mints both', async () => {
    const merchant = (await createMerchantVia(partner.token, { name: 'Mode Shop' })).body;
    const escalation = await mintCrmKey(partner.token, merchant.id, { mode: 'live' });
    expect(escalation.status).toBe(403);
    expect(escalation.body.code).toBe('mode_escalation_forbidden');

    const livePartner = await createPartner(harness.db, { mode: 'live' });
    const liveMerchant = (await createMerchantVia(livePartner.token, { name: 'Live Shop' })).body;
    const live = await mintCrmKey(livePartner.token, liveMerchant.id);
    expect(live.body.token).toMatch(/^sk_crm_live_/);
    const test = await mintCrmKey(livePartner.token, liveMerchant.id, { mode: 'test' });
    expect(test.body.token).toMatch(/^sk_crm_test_/);
    expect((await call(harness, 'GET', '/api/public/v1/auth/test', { token: live.body.token })).body.mode).toBe('live');
  });

  it("answers 404 for another partner's merchant account and keys", async () => {
    const theirs = (await createMerchantVia(otherPartner.token, { name: 'Not Yours' })).body;
    const theirKey = (await mintCrmKey(otherPartner.token, theirs.id)).body;
    expect((await mintCrmKey(partner.token, theirs.id)).status).toBe(404);
    expect(
      (await call(harness, 'GET', `${crmSide}/merchants/${theirs.id}/keys`, { token: partner.token })).status,
    ).toBe(404);
    const revoke = await call(harness, 'POST', `${crmSide}/merchants/${theirs.id}/keys/${theirKey.id}/revoke`, {
      token: partner.token,
    });
    expect(revoke.status).toBe(404);
    expect((await call(harness, 'GET', '/api/public/v1/auth/test', { token: theirKey.token })).status).toBe(200);
  });

  it('revokes a CRM key: the next call is 401, revoking again is harmless, the list shows it revoked', async () => {
    const merchant = (await createMerchantVia(partner.token, { name: 'Revoke Shop' })).body;
    const key = (await mintCrmKey(partner.token, merchant.id)).body;
    expect((await call(harness, 'GET', '/api/public/v1/auth/test', { token: key.token })).status).toBe(200);
    const revoked = await call(harness, 'POST', `${crmSide}/merchants/${merchant.id}/keys/${key.id}/revoke`, {
      token: partner.token,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'revoked', revokedAt: expect.any(String) });
    const after = await call(harness, 'GET', '/api/public/v1/auth/test', { token: key.token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ code: 'NOT_AUTHORIZED', message: expect.stringMatching(/revoked/) });
    const again = await call(harness, 'POST', `${crmSide}/merchants/${merchant.id}/keys/${key.id}/revoke`, {
      token: partner.token,
    });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const list = await call(harness, 'GET', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token });
    expect(list.body.data[0]).toMatchObject({ id: key.id, status: 'revoked' });
  });

  it('keeps older UUID-format CRM tokens working', async () => {
    const merchant = await createMerchant(harness.db);
    const legacy = await addLegacyCrmKey(harness.db, merchant);
    for (const spelling of [legacy, legacy.toUpperCase()]) {
      const answer = await call(harness, 'GET', '/api/public/v1/auth/test', { token: spelling });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ keyType: 'crm', account: { id: merchant.accountId } });
    }
  });

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
