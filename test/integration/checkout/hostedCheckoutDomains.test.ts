import { request } from 'node:http';
import { createActivities } from '../../../activities';
import { call, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';

/** A stub DNS: TXT records by name, nothing else resolves (no outside traffic). */
const dns = new Map<string, string[][]>();
async function stubResolveTxt(name: string): Promise<string[][]> {
  const answer = dns.get(name);
  if (!answer) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return answer;
}

/** GET on the engine with another Host header, as a browser on a custom domain sends it. */
function getWithHost(harness: Harness, host: string, pathAndQuery: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(harness.url);
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path: pathAndQuery, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('hosted pages on a store’s custom domain (stub DNS resolver)', () => {
  const harness = useHarness({}, { dnsTxt: stubResolveTxt });
  const t = usePaymentTenant(harness);

  const session = (storeId = t.storeId) =>
    ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId,
      customer: { email: 'shopper@example.com' },
      lineItems: [{ priceId: t.priceId, quantity: 1 }],
    });

  async function register(hostname: string, storeId = t.storeId, publish = true) {
    const domain = await ok(harness, 'POST', '/domains', t.token, { storeId, hostname });
    if (publish) dns.set(domain.verification.name, [[domain.verification.value]]);
    const verified = await call(harness, 'POST', `${api}/domains/${domain.id}/verify`, { token: t.token });
    expect(verified.status).toBe(200);
    return verified.body;
  }

  it('serves a store’s sessions on its verified domain, and links to it', async () => {
    expect((await register('pay.merchant.example')).status).toBe('verified');
    const s = await session();
    const url = new URL(s.url);
    expect(url.origin).toBe('https://pay.merchant.example');
    expect(url.pathname).toBe(`/checkout/${s.id}`);
    const page = await getWithHost(harness, 'pay.merchant.example', `${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('id="card-form"');
    // The same link on the engine's own host keeps working; the form posts to the page's own origin.
    expect(page.body).toContain(`action="/checkout/${s.id}/pay"`);
    const onEngine = await getWithHost(harness, new URL(harness.url).host, `${url.pathname}${url.search}`);
    expect(onEngine.status).toBe(200);
  });

  it('answers 404 on a foreign host, an unverified domain, and another store’s verified domain', async () => {
    const s = await session();
    const url = new URL(s.url);
    const path = `${url.pathname}${url.search}`;
    expect((await getWithHost(harness, 'evil.example', path)).status).toBe(404);
    const pending = await register('pending.merchant.example', t.storeId, false);
    expect(pending.status).toBe('failed');
    expect((await getWithHost(harness, 'pending.merchant.example', path)).status).toBe(404);
    const otherStore = await ok(harness, 'POST', '/stores', t.token, { name: 'Other', baseCurrency: 'EUR' });
    expect((await register('other.merchant.example', otherStore.id)).status).toBe('verified');
    const foreign = await getWithHost(harness, 'other.merchant.example', path);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toContain('Payment page not found');
  });

  it('stops serving a domain whose TXT record is gone once it is checked again', async () => {
    const domain = await register('gone.merchant.example');
    expect(domain.status).toBe('verified');
    const s = await session();
    const url = new URL(s.url);
    const path = `${url.pathname}${url.search}`;
    expect((await getWithHost(harness, 'gone.merchant.example', path)).status).toBe(200);
    dns.delete(domain.verification.name);
    const rechecked = await call(harness, 'POST', `${api}/domains/${domain.id}/verify`, { token: t.token });
    expect(rechecked.body.status).toBe('failed');
    expect((await getWithHost(harness, 'gone.merchant.example', path)).status).toBe(404);
  });

  it('the rechecker’s round (real Postgres) fails a domain whose record went and verifies one published late', async () => {
    const kept = await register('kept.merchant.example');
    const removed = await register('removed.merchant.example');
    const late = await register('late.merchant.example', t.storeId, false);
    expect([kept.status, removed.status, late.status]).toEqual(['verified', 'verified', 'failed']);
    dns.delete(removed.verification.name);
    dns.set(late.verification.name, [[late.verification.value]]);
    const activities = createActivities({
      db: harness.db,
      logger: harness.logger,
      config: harness.config,
      sandboxUrl: harness.sandboxUrl,
      dnsTxt: stubResolveTxt,
    });
    // Rounds take the least recently checked first, 200 at a time: repeat until all three were seen.
    const statusOf = async (id: string) => (await harness.db.customDomain.findUniqueOrThrow({ where: { id } })).status;
    const before = new Date();
    await until(async () => {
      await activities.recheckDomains();
      const checked = await harness.db.customDomain.count({
        where: { id: { in: [kept.id, removed.id, late.id] }, lastCheckedAt: { gte: before } },
      });
      return checked === 3 ? true : undefined;
    });
    expect([await statusOf(kept.id), await statusOf(removed.id), await statusOf(late.id)]).toEqual([
      'verified',
      'failed',
      'verified',
    ]);
    const s = await session();
    const path = `${new URL(s.url).pathname}${new URL(s.url).search}`;
    expect((await getWithHost(harness, 'removed.merchant.example', path)).status).toBe(404);
    expect((await getWithHost(harness, 'late.merchant.example', path)).status).toBe(200);
  });
});
