import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newId } from '../../../src/domain/ids';
import { createMerchant, createPartner, type Merchant } from '../../helpers/fixtures';
import { startHarness, type Harness } from '../../helpers/harness';
import { iam, iamUser } from './iamHelpers';

describe('IAM partner entities', () => {
  let harness: Harness;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-partners-'));
    harness = await startHarness({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await harness?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A partner of its own per test (names change here), with one merchant account, an admin and a member. */
  async function partnerWithStaff(): Promise<{
    merchant: Merchant;
    admin: Awaited<ReturnType<typeof iamUser>>;
    member: Awaited<ReturnType<typeof iamUser>>;
  }> {
    const merchant = await createMerchant(harness.db, { partnerKind: 'crm_only' });
    const admin = await iamUser(harness, { partner: [merchant.partnerId, 'partner:admin'] });
    const member = await iamUser(harness, { partner: [merchant.partnerId, 'partner:member'] });
    return { merchant, admin, member };
  }
  const partnerEvents = (partnerId: string) =>
    harness.db.iamEvent.findMany({ where: { partnerId, eventType: 's_partner_updated' } });

  it('any staff of the partner reads it with its merchant accounts; GET /partners lists theirs', async () => {
    const { merchant, admin, member } = await partnerWithStaff();
    const second = await harness.db.account.create({
      data: { id: newId('account'), partnerId: merchant.partnerId, name: 'Second Shop' },
    });
    for (const [user, role] of [
      [admin, 'partner:admin'],
      [member, 'partner:member'],
    ] as const) {
      const answer = await iam(harness, 'GET', `/partners/${merchant.partnerId}`, user.token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        object: 'partner',
        id: merchant.partnerId,
        name: 'Test Partner',
        kind: 'crm_only',
        role,
        createdAt: expect.any(String),
        accounts: [
          { id: second.id, name: 'Second Shop' },
          { id: merchant.accountId, name: 'Test Merchant' },
        ],
        accountCount: 2,
      });
    }

    const other = await createPartner(harness.db, { name: 'Other Partner' });
    await harness.db.partnerStaff.create({
      data: { partnerId: other.partnerId, userId: member.userId, role: 'partner:admin' },
    });
    const mine = await iam(harness, 'GET', '/partners', member.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((partner: { id: string; role: string }) => [partner.id, partner.role])).toEqual([
      [merchant.partnerId, 'partner:member'],
      [other.partnerId, 'partner:admin'],
    ]);
    const nobody = await iamUser(harness);
    expect(await iam(harness, 'GET', '/partners', nobody.token)).toMatchObject({ status: 200, body: { data: [] } });
  });

  it("outsiders (no role, the account's org:admin, another partner's admin) get the same 404 as an unknown partner", async () => {
    const { merchant } = await partnerWithStaff();
    const outsiders = [
      await iamUser(harness),
      await iamUser(harness, { account: [merchant.accountId, 'org:admin'] }),
      await iamUser(harness, { partner: [(await createPartner(harness.db)).partnerId, 'partner:admin'] }),
    ];
    const notFound = { status: 404, body: { code: 'NOT_FOUND', message: 'Partner not found' } };
    for (const outsider of outsiders)
      for (const partnerId of [merchant.partnerId, 'par_doesNotExist']) {
        expect(await iam(harness, 'GET', `/partners/${partnerId}`, outsider.token)).toMatchObject(notFound);
        expect(
          await iam(harness, 'POST', `/partners/${partnerId}`, outsider.token, { name: 'Mine now' }),
        ).toMatchObject(notFound);
        // Refused before the body is read: an invalid one says nothing more.
        expect(await iam(harness, 'POST', `/partners/${partnerId}`, outsider.token, { name: '' })).toMatchObject(
          notFound,
        );
      }
    expect((await harness.db.partner.findUniqueOrThrow({ where: { id: merchant.partnerId } })).name).toBe(
      'Test Partner',
    );
  });

  it('a partner:member may not rename it: 403 partneradmin_rx_option_required, even with an invalid body', async () => {
    const { merchant, member } = await partnerWithStaff();
    const refused = { status: 403, body: { code: 'partneradmin_rx_option_required' } };
    const base = `/partners/${merchant.partnerId}`;
    expect(await iam(harness, 'POST', base, member.token, { name: 'Renamed' })).toMatchObject(refused);
    expect(await iam(harness, 'POST', base, member.token, { name: 42 })).toMatchObject(refused);
    expect((await harness.db.partner.findUniqueOrThrow({ where: { id: merchant.partnerId } })).name).toBe(
      'Test Partner',
    );
    expect(await partnerEvents(merchant.partnerId)).toEqual([]);
  });

  it('a partner:admin renames it: 200, s_partner_updated with both names; the same name again records nothing', async () => {
    const { merchant, admin } = await partnerWithStaff();
    const base = `/partners/${merchant.partnerId}`;
    const renamed = await iam(harness, 'POST', base, admin.token, { name: '  Acme Payments  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      object: 'partner',
      id: merchant.partnerId,
      name: 'Acme Payments',
      kind: 'crm_only',
      role: 'partner:admin',
    });
    expect((await iam(harness, 'GET', base, admin.token)).body.name).toBe('Acme Payments');
    const events = await partnerEvents(merchant.partnerId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorUserId: admin.userId,
      accountId: null,
      properties: { fromName: 'Test Partner', toName: 'Acme Payments' },
    });

    const again = await iam(harness, 'POST', base, admin.token, { name: 'Acme Payments' });
    expect(again).toMatchObject({ status: 200, body: { name: 'Acme Payments' } });
    expect(await partnerEvents(merchant.partnerId)).toHaveLength(1);
  });

  it("a partner:admin's invalid body is 400 VALIDATION_ERROR naming the field; only the name can change", async () => {
    const { merchant, admin } = await partnerWithStaff();
    const base = `/partners/${merchant.partnerId}`;
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
    ] as const) {
      const answer = await iam(harness, 'POST', base, admin.token, body);
      expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
      expect(answer.body.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
    const kind = await iam(harness, 'POST', base, admin.token, { name: 'Fine', kind: 'payfac' });
    expect(kind).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(kind.body.message).toMatch(/kind/);
    expect(await harness.db.partner.findUniqueOrThrow({ where: { id: merchant.partnerId } })).toMatchObject({
      name: 'Test Partner',
      kind: 'crm_only',
    });
    expect(await partnerEvents(merchant.partnerId)).toEqual([]);
  });

  it("API keys are 401 NOT_AUTHORIZED on the partner routes, even the partner's own key", async () => {
    const { merchant } = await partnerWithStaff();
    const partner = await createPartner(harness.db);
    for (const [token, partnerId] of [
      [merchant.token, merchant.partnerId],
      [partner.token, partner.partnerId],
    ] as const) {
      for (const [method, route, body] of [
        ['GET', '/partners', undefined],
        ['GET', `/partners/${partnerId}`, undefined],
        ['POST', `/partners/${partnerId}`, { name: 'Keyed' }],
      ] as const) {
        const answer = await iam(harness, method, route, token, body);
        expect(answer).toMatchObject({ status: 401, body: { code: 'NOT_AUTHORIZED' } });
        expect(answer.body.message).toMatch(/user sessions/);
      }
    }
  });
});
