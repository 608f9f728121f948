import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMerchant, type Merchant } from '../../helpers/fixtures';
import { startHarness, type Harness } from '../../helpers/harness';
import { iam, iamUser } from './iamHelpers';

describe('IAM account members', () => {
  let harness: Harness;
  let merchant: Merchant;
  let dataDir: string;
  let admin: Awaited<ReturnType<typeof iamUser>>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-members-'));
    harness = await startHarness({ DATA_DIR: dataDir });
    merchant = await createMerchant(harness.db);
    admin = await iamUser(harness, { account: [merchant.accountId, 'org:admin'] });
  });
  afterAll(async () => {
    await harness?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const eventsOf = (accountId: string, eventType: string) =>
    harness.db.iamEvent.findMany({ where: { accountId, eventType } });

  it('GET /me answers the user and its roles', async () => {
    const answer = await iam(harness, 'GET', '/me', admin.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      object: 'user',
      id: admin.userId,
      email: admin.email,
      memberships: [{ accountId: merchant.accountId, role: 'org:admin' }],
      partnerRoles: [],
    });
  });

  it('the __session cookie works like the Bearer header', async () => {
    const answer = await iam(harness, 'GET', '/me', '', undefined);
    expect(answer.status).toBe(401);
    const viaCookie = await fetch(`${harness.url}/api/v1/iam/me`, {
      headers: { cookie: `a=b; __session=${admin.token}` },
    });
    expect(viaCookie.status).toBe(200);
    expect(((await viaCookie.json()) as { id: string }).id).toBe(admin.userId);
  });

  it('an org:admin adds a member by e-mail (any case), lists, changes the role and removes them, each an event', async () => {
    const added = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, admin.token, {
      email: 'New.Person@Example.TEST',
      role: 'org:member',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ email: 'new.person@example.test', role: 'org:member', created: true });
    const userId = added.body.userId as string;
    expect(userId).toMatch(/^usr_/);

    const again = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, admin.token, {
      email: 'new.person@example.test',
      role: 'org:member',
    });
    expect(again).toMatchObject({ status: 200, body: { userId, created: false } });
    const otherRole = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, admin.token, {
      email: 'new.person@example.test',
      role: 'org:admin',
    });
    expect(otherRole).toMatchObject({ status: 409, body: { code: 'ALREADY_MEMBER' } });

    const list = await iam(harness, 'GET', `/accounts/${merchant.accountId}/members`, admin.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [admin.userId, 'org:admin'],
      [userId, 'org:member'],
    ]);

    const promoted = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members/${userId}/role`, admin.token, {
      role: 'org:admin',
    });
    expect(promoted).toMatchObject({ status: 200, body: { userId, role: 'org:admin' } });
    expect((await eventsOf(merchant.accountId, 's_role_changed')).map((e) => e.properties)).toContainEqual({
      userId,
      fromRole: 'org:member',
      toRole: 'org:admin',
    });

    const removed = await iam(harness, 'DELETE', `/accounts/${merchant.accountId}/members/${userId}`, admin.token);
    expect(removed).toMatchObject({ status: 200, body: { deleted: true, userId, role: 'org:admin' } });
    expect(await harness.db.accountMember.count({ where: { accountId: merchant.accountId, userId } })).toBe(0);
    expect((await eventsOf(merchant.accountId, 's_member_added')).map((e) => e.properties)).toContainEqual({
      userId,
      role: 'org:member',
    });
    expect((await eventsOf(merchant.accountId, 's_member_removed')).map((e) => e.properties)).toContainEqual({
      userId,
      role: 'org:admin',
    });
  });

  it('an org:member reads the members but cannot add, change or remove (403)', async () => {
    const member = await iamUser(harness, { account: [merchant.accountId, 'org:member'] });
    expect((await iam(harness, 'GET', `/accounts/${merchant.accountId}/members`, member.token)).status).toBe(200);
    const add = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, member.token, {
      email: 'x@example.test',
      role: 'org:member',
    });
    expect(add).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    const change = await iam(
      harness,
      'POST',
      `/accounts/${merchant.accountId}/members/${admin.userId}/role`,
      member.token,
      {
        role: 'org:member',
      },
    );
    expect(change).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    const remove = await iam(
      harness,
      'DELETE',
      `/accounts/${merchant.accountId}/members/${admin.userId}`,
      member.token,
    );
    expect(remove).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    // Leaving on one's own is allowed.
    const leave = await iam(
      harness,
      'DELETE',
      `/accounts/${merchant.accountId}/members/${member.userId}`,
      member.token,
    );
    expect(leave.status).toBe(200);
  });

  it('self-assignment is denied, for admins too (403 self_assignment_denied)', async () => {
    const demoteSelf = await iam(
      harness,
      'POST',
      `/accounts/${merchant.accountId}/members/${admin.userId}/role`,
      admin.token,
      {
        role: 'org:member',
      },
    );
    expect(demoteSelf).toMatchObject({ status: 403, body: { code: 'self_assignment_denied' } });
    const addSelf = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, admin.token, {
      email: admin.email.toUpperCase(),
      role: 'org:admin',
    });
    expect(addSelf).toMatchObject({ status: 403, body: { code: 'self_assignment_denied' } });
  });

  it('the last org:admin can be neither demoted nor removed (409), another admin first', async () => {
    const solo = await createMerchant(harness.db);
    const partnerAdmin = await iamUser(harness, { partner: [solo.partnerId, 'partner:admin'] });
    const onlyAdmin = await iamUser(harness, { account: [solo.accountId, 'org:admin'] });
    const demote = await iam(
      harness,
      'POST',
      `/accounts/${solo.accountId}/members/${onlyAdmin.userId}/role`,
      partnerAdmin.token,
      {
        role: 'org:member',
      },
    );
    expect(demote).toMatchObject({ status: 409, body: { code: 'LAST_ADMIN' } });
    const remove = await iam(
      harness,
      'DELETE',
      `/accounts/${solo.accountId}/members/${onlyAdmin.userId}`,
      partnerAdmin.token,
    );
    expect(remove).toMatchObject({ status: 409, body: { code: 'LAST_ADMIN' } });
    const leave = await iam(
      harness,
      'DELETE',
      `/accounts/${solo.accountId}/members/${onlyAdmin.userId}`,
      onlyAdmin.token,
    );
    expect(leave).toMatchObject({ status: 409, body: { code: 'LAST_ADMIN' } });
    expect(await harness.db.accountMember.findMany({ where: { accountId: solo.accountId } })).toEqual([
      expect.objectContaining({ userId: onlyAdmin.userId, role: 'org:admin' }),
    ]);
  });

  it('an account outside the user is 404 whether or not it exists', async () => {
    const elsewhere = await createMerchant(harness.db);
    for (const accountId of [elsewhere.accountId, 'acc_doesNotExist']) {
      const answer = await iam(harness, 'GET', `/accounts/${accountId}/members`, admin.token);
      expect(answer).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: 'Account not found' } });
    }
  });

  it('partner staff: partner:admin manages its merchants’ members, partner:member only reads', async () => {
    const partnerAdmin = await iamUser(harness, { partner: [merchant.partnerId, 'partner:admin'] });
    const partnerMember = await iamUser(harness, { partner: [merchant.partnerId, 'partner:member'] });
    const byAdmin = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, partnerAdmin.token, {
      email: 'from.partner@example.test',
      role: 'org:member',
    });
    expect(byAdmin.status).toBe(201);
    expect((await iam(harness, 'GET', `/accounts/${merchant.accountId}/members`, partnerMember.token)).status).toBe(
      200,
    );
    const byMember = await iam(harness, 'POST', `/accounts/${merchant.accountId}/members`, partnerMember.token, {
      email: 'nope@example.test',
      role: 'org:member',
    });
    expect(byMember).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
  });

  it('10 identical concurrent adds make one membership and one event', async () => {
    const fresh = await createMerchant(harness.db);
    const owner = await iamUser(harness, { account: [fresh.accountId, 'org:admin'] });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        iam(harness, 'POST', `/accounts/${fresh.accountId}/members`, owner.token, {
          email: 'concurrent@example.test',
          role: 'org:member',
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.userId)).size).toBe(1);
    const user = await harness.db.user.findUniqueOrThrow({ where: { email: 'concurrent@example.test' } });
    expect(await harness.db.accountMember.count({ where: { accountId: fresh.accountId, userId: user.id } })).toBe(1);
    expect(
      await harness.db.iamEvent.count({
        where: {
          accountId: fresh.accountId,
          eventType: 's_member_added',
          properties: { path: ['userId'], equals: user.id },
        },
      }),
    ).toBe(1);
  });

  it('the database refuses a second membership of one user and account', async () => {
    const user = await harness.db.user.findUniqueOrThrow({ where: { email: 'concurrent@example.test' } });
    const membership = await harness.db.accountMember.findFirstOrThrow({ where: { userId: user.id } });
    await expect(
      harness.db.accountMember.create({
        data: { accountId: membership.accountId, userId: user.id, role: 'org:admin' },
      }),
    ).rejects.toMatchObject({ code: 'P2002' });
    await expect(
      harness.db.user.create({ data: { id: 'usr_dupEmail', email: 'CONCURRENT@example.test' } }),
    ).rejects.toThrow(/users_email_lower_case/);
  });
});
