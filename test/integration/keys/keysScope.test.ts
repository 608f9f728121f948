import { hashToken, mintToken } from '../../../src/domain/apiKeys';
import {
  addCrmKey,
  addProcessingKey,
  createMerchant,
  type ProcessingFixture,
  useMerchant,
  usePartner,
} from '../../helpers/fixtures';
import { call, type ApiAnswer } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

/** Status and error code of an answer, and the object type of a success: one comparison per cell. */
const outcome = (answer: ApiAnswer) =>
  answer.status < 400 && answer.body?.object
    ? { status: answer.status, code: answer.body.code, object: answer.body.object }
    : { status: answer.status, code: answer.body?.code };

/**
 * The key-scope table of docs/api-keys.md, cell by cell: which key works where, and the status and code everywhere
 * else. (processing key → payments.process on another account's store is tested with payments.)
 */
describe('key domains and scope', () => {
  const harness = useHarness();
  const payfac = usePartner(harness, { kind: 'payfac' });
  const crmOnly = usePartner(harness, { kind: 'crm_only' });
  const merchant = useMerchant(harness);
  let processing: ProcessingFixture;
  let storeId: string;

  beforeAll(async () => {
    const store = await call(harness, 'POST', '/api/public/v1/stores', {
      token: merchant.token,
      body: { name: 'Scope Store', baseCurrency: 'EUR' },
    });
    storeId = store.body.id;
    processing = await addProcessingKey(harness.db, merchant, [storeId]);
  });

  const createTpa = async (token: string, accountId: string, store: string) =>
    call(harness, 'POST', '/api/processing/v1/partner/tpas', { token, body: { accountId, storeId: store } });

  it('partner key, full processing partner: create processing account → allowed', async () => {
    const account = (
      await call(harness, 'POST', '/api/public/v1/partner/merchants', { token: payfac.token, body: { name: 'P' } })
    ).body;
    const crm = (
      await call(harness, 'POST', `/api/public/v1/partner/merchants/${account.id}/keys`, {
        token: payfac.token,
        body: {},
      })
    ).body.token;
    const store = (
      await call(harness, 'POST', '/api/public/v1/stores', { token: crm, body: { name: 'S', baseCurrency: 'EUR' } })
    ).body.id;
    const answer = await createTpa(payfac.token, account.id, store);
    expect(outcome(answer)).toEqual({ status: 201, code: undefined, object: 'processing_account' });
  });

  it('partner key, CRM-only partner: create processing account → 403 payfac_required', async () => {
    const account = (
      await call(harness, 'POST', '/api/public/v1/partner/merchants', { token: crmOnly.token, body: { name: 'C' } })
    ).body;
    const answer = await createTpa(crmOnly.token, account.id, 'store_whatever');
    expect(outcome(answer)).toEqual({ status: 403, code: 'payfac_required' });
  });

  it('partner key: create merchant → allowed', async () => {
    const answer = await call(harness, 'POST', '/api/public/v1/partner/merchants', {
      token: payfac.token,
      body: { name: 'Allowed' },
    });
    expect(outcome(answer)).toEqual({ status: 201, code: undefined, object: 'merchant' });
  });

  it('processing key: create processing account (provisioning) → 403', async () => {
    const answer = await createTpa(processing.token, merchant.accountId, storeId);
    expect(outcome(answer)).toEqual({ status: 403, code: 'WRONG_DOMAIN' });
    const merchants = await call(harness, 'POST', '/api/public/v1/partner/merchants', {
      token: processing.token,
      body: { name: 'X' },
    });
    expect(outcome(merchants)).toEqual({ status: 403, code: 'WRONG_DOMAIN' });
  });

  it('processing key: the processing domain for its own processing account → allowed', async () => {
    const answer = await call(harness, 'GET', '/api/processing/v1/auth/test', { token: processing.token });
    expect(outcome(answer)).toEqual({ status: 200, code: undefined });
    expect(answer.body).toMatchObject({
      keyType: 'processing',
      tpaId: processing.tpaId,
      storeIds: [storeId],
      account: { id: merchant.accountId },
    });
  });

  it('processing key: the public API → 403 (wrong domain)', async () => {
    const answer = await call(harness, 'POST', '/api/public/v1/orders/list', { token: processing.token, body: {} });
    expect(outcome(answer)).toEqual({ status: 403, code: 'WRONG_DOMAIN' });
  });

  it('CRM key: list orders of its own merchant → allowed', async () => {
    const answer = await call(harness, 'POST', '/api/public/v1/orders/list', { token: merchant.token, body: {} });
    expect(outcome(answer)).toEqual({ status: 200, code: undefined });
    expect(Array.isArray(answer.body.data)).toBe(true);
  });

  it('CRM key: any processing-domain endpoint → 403 (wrong domain)', async () => {
    for (const [method, path] of [
      ['GET', '/api/processing/v1/auth/test'],
      ['POST', '/api/processing/v1/payments'],
      ['GET', '/api/processing/v1/anything/at/all'],
      ['POST', '/api/processing/v1/partner/tpas'],
    ] as const) {
      const answer = await call(harness, method, path, {
        token: merchant.token,
        body: method === 'POST' ? {} : undefined,
      });
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({
        path,
        status: 403,
        code: 'WRONG_DOMAIN',
      });
      expect(answer.body.message).toMatch(/crm key/i);
    }
  });

  it('CRM key: provisioning routes → 403', async () => {
    for (const [method, path] of [
      ['GET', '/api/public/v1/partner/merchants'],
      ['POST', '/api/public/v1/partner/merchants'],
    ] as const) {
      const answer = await call(harness, method, path, {
        token: merchant.token,
        body: method === 'POST' ? { name: 'X' } : undefined,
      });
      expect({ path, ...outcome(answer) }).toEqual({ path, status: 403, code: 'WRONG_DOMAIN' });
    }
  });

  it('partner key: runtime endpoints → 403 (not to be used at runtime)', async () => {
    for (const [method, path] of [
      ['GET', '/api/public/v1/auth/test'],
      ['POST', '/api/public/v1/orders/list'],
      ['POST', '/api/public/v1/stores'],
      ['GET', '/api/processing/v1/auth/test'],
      ['POST', '/api/processing/v1/payments'],
    ] as const) {
      const answer = await call(harness, method, path, {
        token: payfac.token,
        body: method === 'POST' ? {} : undefined,
      });
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({
        path,
        status: 403,
        code: 'WRONG_DOMAIN',
      });
      expect(answer.body.message).toMatch(/provisioning only/);
    }
  });

  it('partner key: an unknown provisioning path is 404, not a fall-through into the runtime domain', async () => {
    const answer = await call(harness, 'GET', '/api/public/v1/partner/nothing-here', { token: payfac.token });
    expect(outcome(answer)).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('CRM key: its own account only; test and live data do not mix', async () => {
    const other = await createMerchant(harness.db);
    expect(outcome(await call(harness, 'GET', `/api/public/v1/stores/${storeId}`, { token: other.token }))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    const live = await addCrmKey(harness.db, merchant, { mode: 'live' });
    expect(outcome(await call(harness, 'GET', `/api/public/v1/stores/${storeId}`, { token: live }))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    const own = await call(harness, 'GET', `/api/public/v1/stores/${storeId}`, { token: merchant.token });
    expect({ ...outcome(own), id: own.body.id }).toEqual({ status: 200, code: undefined, id: storeId });
  });

  describe('401 NOT_AUTHORIZED with an explanatory message', () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['missing header', {}, /Missing Authorization header/],
      ['empty header', { authorization: '' }, /Missing Authorization header/],
      ['blank header', { authorization: '   ' }, /Missing Authorization header/],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }, /Malformed Authorization header/],
      ['bearer without a key', { authorization: 'Bearer' }, /Malformed Authorization header/],
      ['two tokens', { authorization: 'Bearer a b' }, /Malformed Authorization header/],
      ['not a key', { authorization: 'Bearer hello-world' }, /Malformed API key/],
    ];
    it.each(cases)('%s', async (_name, headers, message) => {
      for (const path of [
        '/api/public/v1/auth/test',
        '/api/processing/v1/auth/test',
        '/api/public/v1/partner/merchants',
      ]) {
        const answer = await call(harness, 'GET', path, { headers });
        expect(answer.status).toBe(401);
        expect(answer.body.code).toBe('NOT_AUTHORIZED');
        expect(answer.body.message).toMatch(message);
      }
    });

    it('unknown key of a valid shape', async () => {
      for (const token of [
        mintToken('crm', 'test'),
        mintToken('partner', 'live'),
        '0b7c6f1e-4b7a-4d7e-9a55-2f4a1c3d5e6f',
      ]) {
        const answer = await call(harness, 'GET', '/api/public/v1/auth/test', { token });
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ code: 'NOT_AUTHORIZED', message: 'API key is not valid' });
      }
    });

    it('revoked key', async () => {
      const token = await addCrmKey(harness.db, merchant);
      await harness.db.apiKey.update({
        where: { tokenHash: hashToken(token) },
        data: { status: 'revoked', revokedAt: new Date() },
      });
      const answer = await call(harness, 'GET', '/api/public/v1/auth/test', { token });
      expect(outcome(answer)).toEqual({ status: 401, code: 'NOT_AUTHORIZED' });
      expect(answer.body.message).toBe('API key has been revoked');
    });
  });

  it('identity management (/api/v1/iam) rejects every Bearer API key with 401', async () => {
    for (const token of [merchant.token, payfac.token, processing.token]) {
      const answer = await call(harness, 'GET', '/api/v1/iam/users', { token });
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('NOT_AUTHORIZED');
    }
  });
});
