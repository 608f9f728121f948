import { createPartner, addLegacyCrmKey, createMerchant, usePartner } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

const crmSide = '/api/public/v1/partner';

describe('partner provisioning: merchant accounts and CRM keys', () => {
  const harness = useHarness();
  const partner = usePartner(harness, { name: 'Acme Payments', mode: 'test' });
  const otherPartner = usePartner(harness, { name: 'Other Partner', mode: 'test' });

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
});
