import { hashToken, mintToken, tokenPrefix } from '../../../src/domain/apiKeys';
import { newId } from '../../../src/domain/ids';
import { call } from '../../helpers/harness';
import { usePartner } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';

const crmSide = '/api/public/v1/partner';
const processingSide = '/api/processing/v1/partner';

/** Keys of one family and mode share their 12-character prefix; last4 tells them apart. */
describe('API key records carry last4 and a prefix…last4 display, never the secret', () => {
  const harness = useHarness();
  const partner = usePartner(harness, { name: 'Last4 Partner', mode: 'test' });

  it('CRM keys: last4 on creation, in the list and on revocation; two keys of a mode differ only there', async () => {
    const merchant = (
      await call(harness, 'POST', `${crmSide}/merchants`, { token: partner.token, body: { name: 'Two keys' } })
    ).body;
    const first = (
      await call(harness, 'POST', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token, body: {} })
    ).body;
    const second = (
      await call(harness, 'POST', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token, body: {} })
    ).body;
    expect(first.prefix).toBe('sk_crm_test_');
    expect(second.prefix).toBe(first.prefix);
    for (const minted of [first, second]) {
      expect(minted.last4).toBe(minted.token.slice(-4));
      expect(minted.display).toBe(`sk_crm_test_…${minted.token.slice(-4)}`);
    }

    const listed = await call(harness, 'GET', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token });
    const shown = (id: string) => listed.body.data.find((key: { id: string }) => key.id === id);
    expect(shown(first.id)).toMatchObject({ last4: first.last4, display: first.display });
    expect(shown(second.id)).toMatchObject({ last4: second.last4, display: second.display });
    expect(JSON.stringify(listed.body)).not.toContain(first.token);
    expect(JSON.stringify(listed.body)).not.toContain(second.token);

    const revoked = await call(harness, 'POST', `${crmSide}/merchants/${merchant.id}/keys/${first.id}/revoke`, {
      token: partner.token,
    });
    expect(revoked.body).toMatchObject({ status: 'revoked', last4: first.last4, display: first.display });
    expect(revoked.body).not.toHaveProperty('token');
  });

  it('a key stored before last4 was kept shows last4 null and the prefix alone', async () => {
    const merchant = (
      await call(harness, 'POST', `${crmSide}/merchants`, { token: partner.token, body: { name: 'Old key' } })
    ).body;
    // Written as older code did: prefix and hash only.
    const token = mintToken('crm', 'test');
    const keyId = newId('apiKey');
    await harness.db.apiKey.create({
      data: {
        id: keyId,
        kind: 'crm',
        mode: 'test',
        prefix: tokenPrefix(token),
        tokenHash: hashToken(token),
        name: 'old',
        partnerId: partner.partnerId,
        accountId: merchant.id,
      },
    });
    const listed = await call(harness, 'GET', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token });
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: keyId, prefix: 'sk_crm_test_', last4: null, display: 'sk_crm_test_…' }),
    ]);
  });

  it('processing keys: last4 on creation and in the list, never the secret', async () => {
    const merchant = (
      await call(harness, 'POST', `${crmSide}/merchants`, { token: partner.token, body: { name: 'Processing' } })
    ).body;
    const crm = (
      await call(harness, 'POST', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token, body: {} })
    ).body;
    const store = (
      await call(harness, 'POST', '/api/public/v1/stores', {
        token: crm.token,
        body: { name: 'S', baseCurrency: 'EUR', presentmentCurrencies: ['EUR'] },
      })
    ).body;
    const tpa = (
      await call(harness, 'POST', `${processingSide}/tpas`, {
        token: partner.token,
        body: { accountId: merchant.id, storeId: store.id },
      })
    ).body;
    const key = (
      await call(harness, 'POST', `${processingSide}/tpas/${tpa.id}/keys`, { token: partner.token, body: {} })
    ).body;
    expect(key).toMatchObject({
      prefix: 'tp_sk_test_' + key.secret.slice(11, 12),
      last4: key.secret.slice(-4),
      display: `${key.secret.slice(0, 12)}…${key.secret.slice(-4)}`,
    });
    const listed = await call(harness, 'GET', `${processingSide}/tpas/${tpa.id}/keys`, { token: partner.token });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: key.id, last4: key.last4, display: key.display })]);
    expect(JSON.stringify(listed.body)).not.toContain(key.secret);
  });

  it('the stored row holds the last 4 characters, not the token', async () => {
    const merchant = (
      await call(harness, 'POST', `${crmSide}/merchants`, { token: partner.token, body: { name: 'Stored' } })
    ).body;
    const minted = (
      await call(harness, 'POST', `${crmSide}/merchants/${merchant.id}/keys`, { token: partner.token, body: {} })
    ).body;
    const row = await harness.db.apiKey.findUniqueOrThrow({ where: { id: minted.id } });
    expect(row.last4).toBe(minted.token.slice(-4));
    expect(Object.values(row).map(String)).not.toContain(minted.token);
  });
});
