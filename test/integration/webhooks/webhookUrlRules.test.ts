import { newId } from '../../../src/domain/ids';
import { createMerchant, type Merchant } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';

describe('webhook URL rules (SSRF)', () => {
  let harness: Harness;
  let live: Merchant;
  let liveStoreId: string;

  beforeAll(async () => {
    harness = await startHarness();
    live = await createMerchant(harness.db, { mode: 'live' });
    liveStoreId = newId('store');
    await harness.db.store.create({
      data: {
        id: liveStoreId,
        accountId: live.accountId,
        mode: 'live',
        name: 'Live Shop',
        baseCurrency: 'USD',
        presentmentCurrencies: ['USD'],
      },
    });
  });
  afterAll(async () => {
    await harness?.stop();
  });

  // The message is part of each row: a DNS failure ("does not resolve") must not pass for a refusal.
  // Host names resolving to private addresses are unit rows (test/unit/ssrfGuard.test.ts, injected DNS).
  it.each([
    [
      'loopback in live mode',
      'https://127.0.0.1/hook',
      /^url host 127\.0\.0\.1: loopback addresses are only allowed in test mode$/,
    ],
    [
      'cloud metadata',
      'https://169.254.169.254/latest/meta-data',
      /^url host 169\.254\.169\.254: private, link-local, metadata or reserved addresses are not allowed$/,
    ],
    ['private 10.x', 'https://10.0.0.8/hook', /^url host 10\.0\.0\.8: private, link-local/],
    ['IPv6 loopback', 'https://[::1]/hook', /^url host ::1: loopback addresses/],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook', /^url host ::ffff:7f00:1: loopback addresses/],
    [
      'a hostname resolving to loopback',
      'https://localhost/hook',
      /^url host localhost resolves to (127\.0\.0\.1|::1): loopback addresses are only allowed in test mode$/,
    ],
    ['plain http in live mode', 'http://example.com/hook', /^url must use https$/],
  ])('refuses %s with 400', async (_label, url, message) => {
    const answer = await call(harness, 'POST', '/api/public/v1/webhooks', {
      token: live.token,
      body: { storeId: liveStoreId, url, eventTypes: ['order/paid'] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('INVALID_WEBHOOK_URL');
    expect(answer.body.message).toMatch(message);
    expect(await harness.db.webhookEndpoint.count({ where: { accountId: live.accountId } })).toBe(0);
  });
});
