import { call } from '../../helpers/harness';
import { addCrmKey, createMerchant, useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';

const path = '/api/public/v1/threeds/create-from-values';
const uuid = '8a880dc0-d2d2-4067-bcb1-b08d1690b26e';
const valid = { eci: '05', authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=', dsTransID: uuid };

type Case = [name: string, body: Record<string, unknown>, status: 200 | 400, expected?: Record<string, unknown>];

/** Every field rule of POST /threeds/create-from-values (docs/threeds.md), with its boundaries. */
const cases: Case[] = [
  [
    'minimal valid body: defaults Y, 2.2.0, customer',
    valid,
    200,
    { transStatus: 'Y', messageVersion: '2.2.0', type: 'customer', status: 'authenticated' },
  ],
  ['eci "5" (one digit)', { ...valid, eci: '5' }, 400],
  ['eci "05"', { ...valid, eci: '05' }, 200, { eci: '05' }],
  ['eci "005" (three digits)', { ...valid, eci: '005' }, 400],
  ['eci "0a" (not digits)', { ...valid, eci: '0a' }, 400],
  ['eci missing', { authenticationValue: 'x', dsTransID: uuid }, 400],
  ['authenticationValue of 1 character', { ...valid, authenticationValue: 'A' }, 200],
  ['authenticationValue of 128 characters', { ...valid, authenticationValue: 'A'.repeat(128) }, 200],
  ['authenticationValue of 129 characters', { ...valid, authenticationValue: 'A'.repeat(129) }, 400],
  ['authenticationValue empty', { ...valid, authenticationValue: '' }, 400],
  ['authenticationValue missing', { eci: '05', dsTransID: uuid }, 400],
  [
    'transStatus A: usable',
    { ...valid, transStatus: 'A', eci: '06' },
    200,
    { status: 'authenticated', transStatus: 'A' },
  ],
  ['transStatus N: stored as failed', { ...valid, transStatus: 'N' }, 200, { status: 'failed', transStatus: 'N' }],
  ['transStatus U: stored as failed', { ...valid, transStatus: 'U' }, 200, { status: 'failed' }],
  ['transStatus R: stored as failed', { ...valid, transStatus: 'R' }, 200, { status: 'failed' }],
  ['transStatus I: stored as failed', { ...valid, transStatus: 'I' }, 200, { status: 'failed' }],
  ['transStatus C (not in the enum)', { ...valid, transStatus: 'C' }, 400],
  ['transStatus lower case y', { ...valid, transStatus: 'y' }, 400],
  ['dsTransID of 36 characters', { ...valid, dsTransID: 'd'.repeat(36) }, 200],
  ['dsTransID of 37 characters', { ...valid, dsTransID: 'd'.repeat(37) }, 400],
  ['dsTransID empty', { ...valid, dsTransID: '' }, 400],
  ['2.x Y with no dsTransID', { eci: '05', authenticationValue: 'x' }, 400],
  ['2.x A with no dsTransID', { eci: '06', authenticationValue: 'x', transStatus: 'A' }, 400],
  [
    '2.x N with no dsTransID: allowed, stored as failed',
    { eci: '07', authenticationValue: 'x', transStatus: 'N' },
    200,
    { status: 'failed' },
  ],
  [
    '1.0.2 Y with no dsTransID: allowed',
    { eci: '05', authenticationValue: 'x', messageVersion: '1.0.2' },
    200,
    { status: 'authenticated', messageVersion: '1.0.2' },
  ],
  ['acsTransID of 36 characters', { ...valid, acsTransID: 'a'.repeat(36) }, 200],
  ['acsTransID of 37 characters', { ...valid, acsTransID: 'a'.repeat(37) }, 400],
  ['acsTransID empty', { ...valid, acsTransID: '' }, 400],
  ['threeDSServerTransID of 36 characters', { ...valid, threeDSServerTransID: 's'.repeat(36) }, 200],
  ['threeDSServerTransID of 37 characters', { ...valid, threeDSServerTransID: 's'.repeat(37) }, 400],
  ['threeDSServerTransID empty', { ...valid, threeDSServerTransID: '' }, 400],
  ['messageVersion 2.2.0', { ...valid, messageVersion: '2.2.0' }, 200, { messageVersion: '2.2.0' }],
  ['messageVersion 2.1.0', { ...valid, messageVersion: '2.1.0' }, 200, { messageVersion: '2.1.0' }],
  ['messageVersion 2.10.1 (two digits in a part)', { ...valid, messageVersion: '2.10.1' }, 400],
  ['messageVersion 3.0', { ...valid, messageVersion: '3.0' }, 400],
  ['messageVersion 1.0.2', { ...valid, messageVersion: '1.0.2' }, 200, { messageVersion: '1.0.2' }],
  ['messageVersion 1.0.1', { ...valid, messageVersion: '1.0.1' }, 400],
  ['cardBrand of 32 characters', { ...valid, cardBrand: 'b'.repeat(32) }, 200, { cardBrand: 'b'.repeat(32) }],
  ['cardBrand of 33 characters', { ...valid, cardBrand: 'b'.repeat(33) }, 400],
  ['type merchant', { ...valid, type: 'merchant' }, 200, { type: 'merchant' }],
  ['type customer', { ...valid, type: 'customer' }, 200, { type: 'customer' }],
  ['type other', { ...valid, type: 'issuer' }, 400],
  ['an unknown property', { ...valid, amount: 100 }, 400],
  ['a number where a string belongs', { ...valid, eci: 5 }, 400],
];

describe('POST /threeds/create-from-values', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);

  // A rest parameter: jest passes `done` to a callback declaring more parameters than a row has.
  it.each(cases)('%s', async (...testCase: Case) => {
    const [, body, status, expected] = testCase;
    const answer = await call(harness, 'POST', path, { token: merchant.token, body });
    expect(answer.status).toBe(status);
    if (status === 400) {
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
      expect(answer.body.issues.length).toBeGreaterThan(0);
      return;
    }
    expect(answer.body.id).toMatch(/^3ds_[0-9A-Za-z]{20}$/);
    if (expected) expect(answer.body).toMatchObject(expected);
    const row = await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: answer.body.id } });
    expect(row).toMatchObject({
      accountId: merchant.accountId,
      mode: 'test',
      source: 'values',
      eci: body.eci,
      authenticationValue: body.authenticationValue,
    });
  });

  it('names the missing dsTransID in the 400', async () => {
    const answer = await call(harness, 'POST', path, {
      token: merchant.token,
      body: { eci: '05', authenticationValue: 'x', messageVersion: '2.1.0' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([
      expect.objectContaining({ path: 'dsTransID', message: expect.stringContaining('dsTransID is required') }),
    ]);
  });

  it('stores the values unchanged and records created + succeeded events in the same write', async () => {
    const body = { ...valid, acsTransID: uuid.toUpperCase(), threeDSServerTransID: ' spaced id ', cardBrand: 'Visa' };
    const answer = await call(harness, 'POST', path, { token: merchant.token, body });
    const row = await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: answer.body.id } });
    expect([
      row.eci,
      row.authenticationValue,
      row.dsTransID,
      row.acsTransID,
      row.threeDSServerTransID,
      row.cardBrand,
    ]).toEqual([
      body.eci,
      body.authenticationValue,
      body.dsTransID,
      body.acsTransID,
      body.threeDSServerTransID,
      body.cardBrand,
    ]);
    const events = await harness.db.event.findMany({
      where: { accountId: merchant.accountId, properties: { path: ['threedsSessionId'], equals: row.id } },
      orderBy: { createdAt: 'asc' },
    });
    expect(events.map((event) => event.eventType).sort()).toEqual([
      's_threeds_session_created',
      's_threeds_session_succeeded',
    ]);
  });

  it('records a failed event for N, and the session reads back as failed', async () => {
    const answer = await call(harness, 'POST', path, { token: merchant.token, body: { ...valid, transStatus: 'R' } });
    const read = await call(harness, 'GET', `/api/public/v1/threeds/${answer.body.id}`, { token: merchant.token });
    expect(read.body).toMatchObject({ id: answer.body.id, status: 'failed', transStatus: 'R' });
    const failed = await harness.db.event.count({
      where: {
        eventType: 's_threeds_session_failed',
        properties: { path: ['threedsSessionId'], equals: answer.body.id },
      },
    });
    expect(failed).toBe(1);
  });

  it('needs org:admin (403 for a member key) and hides sessions of other accounts (404)', async () => {
    const memberToken = await addCrmKey(harness.db, merchant, { role: 'org:member' });
    expect((await call(harness, 'POST', path, { token: memberToken, body: valid })).status).toBe(403);
    const created = await call(harness, 'POST', path, { token: merchant.token, body: valid });
    const other = await createMerchant(harness.db);
    expect(
      (await call(harness, 'GET', `/api/public/v1/threeds/${created.body.id}`, { token: other.token })).status,
    ).toBe(404);
  });
});
