import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createStore, ok } from '../commerce/commerceHelpers';

/** A fake DNS: TXT records by name; a name mapped to an Error makes the lookup throw it. */
const dns = new Map<string, string[][] | Error>();
const lookups: string[] = [];
async function fakeResolveTxt(name: string): Promise<string[][]> {
  lookups.push(name);
  const answer = dns.get(name);
  if (answer instanceof Error) throw answer;
  if (!answer) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return answer;
}

describe('custom domains over HTTP (fake DNS resolver, no outside traffic)', () => {
  const harness = useHarness({}, { dnsTxt: fakeResolveTxt });
  const shop = useShop(harness);

  const register = (hostname: string, token = shop.merchant.token, store = shop.storeId) =>
    call(harness, 'POST', `${api}/domains`, { token, body: { storeId: store, hostname } });
  const verify = (id: string, token = shop.merchant.token) =>
    call(harness, 'POST', `${api}/domains/${id}/verify`, { token });

  it('goes pending → verified → failed as the TXT record appears and disappears', async () => {
    const created = await register('Shop.Example.com.');
    expect(created.status).toBe(200);
    const domain = created.body;
    expect(domain).toMatchObject({
      id: expect.stringMatching(/^dom_/),
      hostname: 'shop.example.com',
      status: 'pending',
      verification: { type: 'TXT', name: '_payengine-verify.shop.example.com' },
    });
    expect(domain.verification.value).toMatch(/^payengine-verify=[0-9A-Za-z]{32}$/);

    const missing = await verify(domain.id);
    expect(missing.body).toMatchObject({ status: 'failed', lastError: expect.stringContaining('No TXT record') });

    dns.set(domain.verification.name, [['unrelated'], [domain.verification.value]]);
    const verified = await verify(domain.id);
    expect(verified.body).toMatchObject({ status: 'verified', lastError: null, verifiedAt: expect.any(String) });
    expect(lookups).toContain('_payengine-verify.shop.example.com');

    dns.set(domain.verification.name, Object.assign(new Error('queryTxt ETIMEOUT'), { code: 'ETIMEOUT' }));
    const timeout = await verify(domain.id);
    expect({ status: timeout.status, code: timeout.body.code }).toEqual({ status: 503, code: 'DNS_LOOKUP_FAILED' });
    expect((await ok(harness, 'GET', `/domains/${domain.id}`, shop.merchant.token)).status).toBe('verified');

    dns.set(domain.verification.name, [['payengine-verify=someone-else']]);
    expect((await verify(domain.id)).body.status).toBe('failed');
  });

  it('refuses a malformed hostname with 400 and hides domains from other accounts and modes', async () => {
    for (const hostname of ['localhost', '10.0.0.1', 'a..b.com', 'https://x.com']) {
      const answer = await register(hostname);
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    const domain = (await register('private.example.org')).body;
    for (const token of [shop.other.token, shop.liveToken]) {
      expect((await call(harness, 'GET', `${api}/domains/${domain.id}`, { token })).status).toBe(404);
      expect((await verify(domain.id, token)).status).toBe(404);
    }
    const otherStore = await createStore(harness, shop.other.token);
    expect((await register('x.example.org', shop.merchant.token, otherStore.id)).status).toBe(404);
  });

  it('a hostname belongs to one store: 10 concurrent registrations from two accounts give one', async () => {
    const otherStore = (await createStore(harness, shop.other.token)).id;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0 ? register('race.example.net') : register('race.example.net', shop.other.token, otherStore),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    expect(answers.filter((answer) => answer.status === 409).every((a) => a.body.code === 'DOMAIN_TAKEN')).toBe(true);
    expect(await harness.db.customDomain.count({ where: { hostname: 'race.example.net' } })).toBe(1);
    // Another case of the same name is the same hostname.
    expect((await register('RACE.example.net')).status).toBe(409);
    // Deleting the registration releases it.
    const winner = answers.find((answer) => answer.status === 200)!.body;
    const owner = winner.storeId === shop.storeId ? shop.merchant.token : shop.other.token;
    expect((await call(harness, 'DELETE', `${api}/domains/${winner.id}`, { token: owner })).status).toBe(200);
    expect((await register('race.example.net')).status).toBe(200);
  });
});
