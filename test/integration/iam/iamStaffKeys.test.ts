import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  addLegacyCrmKey,
  addProcessingKey,
  createMerchant,
  createPartner,
  type Merchant,
} from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { issueSessionToken } from '../../../src/iam/embeddedIdp';
import { iam, iamUser } from './iamHelpers';

describe('IAM partner staff, service keys and credentials', () => {
  let harness: Harness;
  let merchant: Merchant;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-staff-'));
    harness = await startHarness({ DATA_DIR: dataDir });
    merchant = await createMerchant(harness.db);
  });
  afterAll(async () => {
    await harness?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every API key family is 401 NOT_AUTHORIZED saying IAM takes user sessions', async () => {
    const partner = await createPartner(harness.db, { kind: 'payfac' });
    const store = await call(harness, 'POST', '/api/public/v1/stores', {
      token: merchant.token,
      body: { name: 'IAM Store', baseCurrency: 'EUR' },
    });
    const processing = await addProcessingKey(harness.db, merchant, [store.body.id]);
    const legacy = await addLegacyCrmKey(harness.db, merchant);
    for (const token of [merchant.token, partner.token, processing.token, legacy]) {
      const answer = await iam(harness, 'GET', '/me', token);
      expect(answer).toMatchObject({ status: 401, body: { code: 'NOT_AUTHORIZED' } });
      expect(answer.body.message).toMatch(/user sessions/);
    }
  });

  it('missing, tampered, expired-by-audience and foreign tokens are 401 NOT_AUTHORIZED', async () => {
    const user = await iamUser(harness, { account: [merchant.accountId, 'org:member'] });
    const missing = await call(harness, 'GET', '/api/v1/iam/me');
    expect(missing).toMatchObject({ status: 401, body: { code: 'NOT_AUTHORIZED' } });
    const [h, p, s] = user.token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'usr_other' }),
    ).toString('base64url');
    const tampered = await iam(harness, 'GET', '/me', `${h}.${forged}.${s}`);
    expect(tampered).toMatchObject({ status: 401, body: { code: 'NOT_AUTHORIZED' } });
    const otherAudience = await issueSessionToken({ ...harness.config, IAM_AUDIENCE: 'elsewhere' }, user.userId);
    expect((await iam(harness, 'GET', '/me', otherAudience.sessionToken)).status).toBe(401);
    const otherIssuer = await issueSessionToken({ ...harness.config, IAM_ISSUER: 'https://other.test' }, user.userId);
    expect((await iam(harness, 'GET', '/me', otherIssuer.sessionToken)).status).toBe(401);
    const unknownUser = await issueSessionToken(harness.config, 'usr_nobodyAtAll');
    expect((await iam(harness, 'GET', '/me', unknownUser.sessionToken)).status).toBe(401);
  });

  it('serves the embedded JWKS (public key only)', async () => {
    const answer = await call(harness, 'GET', '/.well-known/jwks.json');
    expect(answer.status).toBe(200);
    expect(answer.body.keys).toHaveLength(1);
    expect(answer.body.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256' });
    expect(answer.body.keys[0].d).toBeUndefined();
  });

  it('partner:admin manages staff; partner:member gets partneradmin_rx_option_required; outsiders 404', async () => {
    const admin = await iamUser(harness, { partner: [merchant.partnerId, 'partner:admin'] });
    const member = await iamUser(harness, { partner: [merchant.partnerId, 'partner:member'] });
    const outsider = await iamUser(harness);
    const base = `/partners/${merchant.partnerId}/staff`;

    const added = await iam(harness, 'POST', base, admin.token, {
      email: 'staff@example.test',
      role: 'partner:member',
    });
    expect(added).toMatchObject({ status: 201, body: { role: 'partner:member', created: true } });
    const staffId = added.body.userId as string;
    expect((await iam(harness, 'GET', base, member.token)).body.data).toHaveLength(3);

    const denied = await iam(harness, 'POST', base, member.token, { email: 'x@example.test', role: 'partner:member' });
    expect(denied).toMatchObject({ status: 403, body: { code: 'partneradmin_rx_option_required' } });
    const deniedRole = await iam(harness, 'POST', `${base}/${staffId}/role`, member.token, { role: 'partner:admin' });
    expect(deniedRole).toMatchObject({ status: 403, body: { code: 'partneradmin_rx_option_required' } });
    const deniedRemove = await iam(harness, 'DELETE', `${base}/${staffId}`, member.token);
    expect(deniedRemove).toMatchObject({ status: 403, body: { code: 'partneradmin_rx_option_required' } });
    const selfPromote = await iam(harness, 'POST', `${base}/${admin.userId}/role`, admin.token, {
      role: 'partner:member',
    });
    expect(selfPromote).toMatchObject({ status: 403, body: { code: 'self_assignment_denied' } });
    for (const partnerId of [merchant.partnerId, 'par_doesNotExist'])
      expect(await iam(harness, 'GET', `/partners/${partnerId}/staff`, outsider.token)).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });

    const promoted = await iam(harness, 'POST', `${base}/${staffId}/role`, admin.token, { role: 'partner:admin' });
    expect(promoted).toMatchObject({ status: 200, body: { role: 'partner:admin' } });
    const removed = await iam(harness, 'DELETE', `${base}/${staffId}`, admin.token);
    expect(removed).toMatchObject({ status: 200, body: { deleted: true, userId: staffId } });
    const events = await harness.db.iamEvent.findMany({ where: { partnerId: merchant.partnerId } });
    expect(events.map((event) => event.eventType)).toEqual(
      expect.arrayContaining(['s_staff_added', 's_staff_role_changed', 's_staff_removed']),
    );
  });

  it('service keys: an org:admin mints an sk_crm_ key with org:admin rights, lists and revokes it', async () => {
    const admin = await iamUser(harness, { account: [merchant.accountId, 'org:admin'] });
    const member = await iamUser(harness, { account: [merchant.accountId, 'org:member'] });
    const base = `/accounts/${merchant.accountId}/service-keys`;
    expect(await iam(harness, 'POST', base, member.token, { name: 'nope' })).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    const minted = await iam(harness, 'POST', base, admin.token, { name: 'ERP sync' });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ object: 'service_key', role: 'org:admin', mode: 'test', status: 'active' });
    expect(minted.body.token).toMatch(/^sk_crm_test_/);

    // The key works on the public API with org:admin rights (events/recent is org:admin only).
    const adminOnly = await call(harness, 'POST', '/api/public/v1/events/recent', {
      token: minted.body.token,
      body: {},
    });
    expect(adminOnly.status).toBe(200);

    const list = await iam(harness, 'GET', base, admin.token);
    const listed = list.body.data.find((key: { id: string }) => key.id === minted.body.id);
    expect(listed).toMatchObject({ name: 'ERP sync', status: 'active' });
    expect(listed.token).toBeUndefined();

    const revoked = await iam(harness, 'POST', `${base}/${minted.body.id}/revoke`, admin.token);
    expect(revoked).toMatchObject({ status: 200, body: { status: 'revoked' } });
    const afterRevoke = await call(harness, 'GET', '/api/public/v1/auth/test', { token: minted.body.token });
    expect(afterRevoke.status).toBe(401);
    const types = (await harness.db.iamEvent.findMany({ where: { accountId: merchant.accountId } })).map(
      (event) => event.eventType,
    );
    expect(types).toEqual(expect.arrayContaining(['s_service_key_created', 's_service_key_revoked']));
    expect(
      (await iam(harness, 'POST', `/accounts/${merchant.accountId}/service-keys/key_doesNotExist/revoke`, admin.token))
        .status,
    ).toBe(404);
  });

  it('10 identical revokes of one service key at once: all answer revoked, one revocation event', async () => {
    const admin = await iamUser(harness, { account: [merchant.accountId, 'org:admin'] });
    const base = `/accounts/${merchant.accountId}/service-keys`;
    const minted = await iam(harness, 'POST', base, admin.token, { name: 'double click' });
    expect(minted.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => iam(harness, 'POST', `${base}/${minted.body.id}/revoke`, admin.token)),
    );
    expect(answers.map((answer) => [answer.status, answer.body.status])).toEqual(
      Array.from({ length: 10 }, () => [200, 'revoked']),
    );
    const revokedEvents = await harness.db.iamEvent.findMany({
      where: { accountId: merchant.accountId, eventType: 's_service_key_revoked' },
    });
    expect(
      revokedEvents.filter((event) => (event.properties as { keyId?: string }).keyId === minted.body.id),
    ).toHaveLength(1);
  });
});
