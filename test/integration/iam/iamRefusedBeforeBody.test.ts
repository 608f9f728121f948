import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMerchant, createPartner, type Merchant } from '../../helpers/fixtures';
import { startHarness, type Harness } from '../../helpers/harness';
import { iam, iamUser } from './iamHelpers';

/**
 * Authenticate, then authorize, then validate: on every IAM route with a body, the caller's right
 * to the account or partner in the path is decided before the body is read (docs/iam.md, Rules).
 */
describe('IAM routes with a body refuse the caller before reading it', () => {
  let harness: Harness;
  let dataDir: string;
  let merchant: Merchant;
  type User = Awaited<ReturnType<typeof iamUser>>;
  let orgAdmin: User;
  let orgMember: User;
  let partnerAdmin: User;
  let partnerMember: User;
  let nobody: User;
  let otherPartnerAdmin: User;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-refused-'));
    harness = await startHarness({ DATA_DIR: dataDir });
    merchant = await createMerchant(harness.db);
    orgAdmin = await iamUser(harness, { account: [merchant.accountId, 'org:admin'] });
    orgMember = await iamUser(harness, { account: [merchant.accountId, 'org:member'] });
    partnerAdmin = await iamUser(harness, { partner: [merchant.partnerId, 'partner:admin'] });
    partnerMember = await iamUser(harness, { partner: [merchant.partnerId, 'partner:member'] });
    nobody = await iamUser(harness);
    otherPartnerAdmin = await iamUser(harness, {
      partner: [(await createPartner(harness.db)).partnerId, 'partner:admin'],
    });
  });
  afterAll(async () => {
    await harness?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const accountNotFound = { status: 404, body: { code: 'NOT_FOUND', message: 'Account not found' } };
  const partnerNotFound = { status: 404, body: { code: 'NOT_FOUND', message: 'Partner not found' } };

  /** Each route with a body: its path under an account or partner, an invalid body and the field it names. */
  const accountRoutes = (accountId: string, userId: string) =>
    [
      [`/accounts/${accountId}/members`, { email: 'not-an-email', role: 'org:member' }, 'email'],
      [`/accounts/${accountId}/members/${userId}/role`, { role: 'org:owner' }, 'role'],
      [`/accounts/${accountId}/service-keys`, { name: '' }, 'name'],
    ] as const;
  const partnerRoutes = (partnerId: string, userId: string) =>
    [
      [`/partners/${partnerId}/staff`, { email: 'staff@example.test', role: 'partner:owner' }, 'role'],
      [`/partners/${partnerId}/staff/${userId}/role`, { role: 42 }, 'role'],
    ] as const;

  it('an outsider with an invalid body gets 404, for an existing account or partner as for an unknown one', async () => {
    for (const outsider of [nobody, otherPartnerAdmin, partnerAdmin]) {
      // partnerAdmin is staff of the merchant's partner, not of the one-off account below.
      const elsewhere = await createMerchant(harness.db);
      for (const accountId of [elsewhere.accountId, 'acc_doesNotExist'])
        for (const [route, body] of accountRoutes(accountId, orgAdmin.userId))
          expect(await iam(harness, 'POST', route, outsider.token, body)).toMatchObject(accountNotFound);
    }
    for (const outsider of [nobody, otherPartnerAdmin, orgAdmin])
      for (const partnerId of [merchant.partnerId, 'par_doesNotExist'])
        for (const [route, body] of partnerRoutes(partnerId, partnerAdmin.userId))
          expect(await iam(harness, 'POST', route, outsider.token, body)).toMatchObject(partnerNotFound);
  });

  it('a member without the right gets 403 with an invalid body, not 400', async () => {
    for (const member of [orgMember, partnerMember])
      for (const [route, body] of accountRoutes(merchant.accountId, orgAdmin.userId))
        expect(await iam(harness, 'POST', route, member.token, body)).toMatchObject({
          status: 403,
          body: { code: 'FORBIDDEN' },
        });
    for (const [route, body] of partnerRoutes(merchant.partnerId, partnerAdmin.userId))
      expect(await iam(harness, 'POST', route, partnerMember.token, body)).toMatchObject({
        status: 403,
        body: { code: 'partneradmin_rx_option_required' },
      });
  });

  it('an admin with an invalid body gets 400 VALIDATION_ERROR naming the field', async () => {
    const cases = [
      ...accountRoutes(merchant.accountId, orgMember.userId).map((route) => [orgAdmin, ...route] as const),
      ...accountRoutes(merchant.accountId, orgMember.userId).map((route) => [partnerAdmin, ...route] as const),
      ...partnerRoutes(merchant.partnerId, partnerMember.userId).map((route) => [partnerAdmin, ...route] as const),
    ];
    for (const [admin, route, body, field] of cases) {
      const answer = await iam(harness, 'POST', route, admin.token, body);
      expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
      expect(answer.body.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
  });

  it('a malformed id in the path is still 400, before the right is checked', async () => {
    for (const route of ['/accounts/not-an-id/members', '/partners/not-an-id/staff']) {
      const answer = await iam(harness, 'POST', route, nobody.token, { email: 'x@example.test', role: 'org:member' });
      expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    }
  });

  it('a refused caller invites nobody, even with a valid body', async () => {
    const email = `not.invited.${process.pid}@example.test`;
    expect(
      await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, orgMember.token, {
        email,
        role: 'org:member',
      }),
    ).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect(
      await iam(harness, 'POST', `/partners/${merchant.partnerId}/staff`, partnerMember.token, {
        email,
        role: 'partner:member',
      }),
    ).toMatchObject({ status: 403, body: { code: 'partneradmin_rx_option_required' } });
    expect(await harness.db.user.findUnique({ where: { email } })).toBeNull();
  });
});
