import { createPartner, usePartner } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

const crmSide = '/api/public/v1/partner';
const processingSide = '/api/processing/v1/partner';

/** For processing keys: a key has its processing account's mode, and a test partner key never reaches live. */
describe('processing key modes', () => {
  const harness = useHarness();
  const partner = usePartner(harness, { name: 'Mode Partner', mode: 'test' });

  const createMerchantVia = async (token: string, body: Record<string, unknown>) =>
    call(harness, 'POST', `${crmSide}/merchants`, { token, body });
  const createStoreFor = async (partnerToken: string, accountId: string, mode: 'test' | 'live' = 'test') => {
    const crm = (
      await call(harness, 'POST', `${crmSide}/merchants/${accountId}/keys`, { token: partnerToken, body: { mode } })
    ).body.token;
    const store = await call(harness, 'POST', '/api/public/v1/stores', {
      token: crm,
      body: { name: 'Store', baseCurrency: 'EUR' },
    });
    expect(store.status).toBe(200);
    return store.body.id as string;
  };

  it("mints processing keys only in the processing account's mode, and never live for a test partner key", async () => {
    const tpaFor = async (token: string, accountId: string, storeId: string, mode: 'test' | 'live') =>
      (await call(harness, 'POST', `${processingSide}/tpas`, { token, body: { accountId, storeId, mode } })).body
        .id as string;
    const mint = async (token: string, tpaId: string, body: Record<string, unknown>) => {
      const answer = await call(harness, 'POST', `${processingSide}/tpas/${tpaId}/keys`, { token, body });
      return { status: answer.status, code: answer.body.code, mode: answer.body.mode };
    };

    const merchant = (await createMerchantVia(partner.token, { name: 'Key Mode Shop' })).body;
    const testTpa = await tpaFor(partner.token, merchant.id, await createStoreFor(partner.token, merchant.id), 'test');
    expect(await mint(partner.token, testTpa, { mode: 'live' })).toEqual({
      status: 403,
      code: 'mode_escalation_forbidden',
      mode: undefined,
    });
    expect(await harness.db.apiKey.count({ where: { tpaId: testTpa } })).toBe(0);

    const livePartner = await createPartner(harness.db, { mode: 'live' });
    const liveMerchant = (await createMerchantVia(livePartner.token, { name: 'Live Key Mode Shop' })).body;
    const liveTpa = await tpaFor(
      livePartner.token,
      liveMerchant.id,
      await createStoreFor(livePartner.token, liveMerchant.id, 'live'),
      'live',
    );
    const livesTestTpa = await tpaFor(
      livePartner.token,
      liveMerchant.id,
      await createStoreFor(livePartner.token, liveMerchant.id, 'test'),
      'test',
    );
    expect(await mint(livePartner.token, liveTpa, { mode: 'test' })).toEqual({
      status: 400,
      code: 'MODE_MISMATCH',
      mode: undefined,
    });
    expect(await mint(livePartner.token, livesTestTpa, { mode: 'live' })).toEqual({
      status: 400,
      code: 'MODE_MISMATCH',
      mode: undefined,
    });
    expect(await mint(livePartner.token, liveTpa, {})).toEqual({ status: 201, code: undefined, mode: 'live' });
    expect(await mint(livePartner.token, livesTestTpa, { mode: 'test' })).toEqual({
      status: 201,
      code: undefined,
      mode: 'test',
    });
  });
});
