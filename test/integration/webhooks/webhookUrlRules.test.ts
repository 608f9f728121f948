import { newId } from '../../../src/domain/ids';
import { call } from '../../helpers/harness';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';
import { newWebhookSecret } from '../../../src/webhooks/signing';
import { startReceiver, until } from './webhookReceiver';

describe('webhook URL rules (SSRF)', () => {
  const harness = useHarness();
  const live = useMerchant(harness, { mode: 'live' });
  let liveStoreId: string;

  beforeAll(async () => {
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

describe('loopback webhook receivers when the operator has not allowed them (WEBHOOK_ALLOW_LOOPBACK=false)', () => {
  const harness = useHarness({ WEBHOOK_ALLOW_LOOPBACK: 'false' });
  const merchant = useMerchant(harness, { mode: 'test' });
  let storeId: string;

  beforeAll(async () => {
    storeId = newId('store');
    await harness.db.store.create({
      data: {
        id: storeId,
        accountId: merchant.accountId,
        mode: 'test',
        name: 'Test Shop',
        baseCurrency: 'USD',
        presentmentCurrencies: ['USD'],
      },
    });
  });

  const refusal = {
    code: 'WEBHOOK_LOOPBACK_NOT_ALLOWED',
    message: expect.stringMatching(/loopback receivers are turned off .*WEBHOOK_ALLOW_LOOPBACK=true/),
  };

  it.each(['http://127.0.0.1:8080/hook', 'http://[::1]:8080/hook', 'http://localhost:8080/hook'])(
    'refuses a test-mode endpoint at %s with 400 WEBHOOK_LOOPBACK_NOT_ALLOWED, on create and on update',
    async (url) => {
      const created = await call(harness, 'POST', '/api/public/v1/webhooks', {
        token: merchant.token,
        body: { storeId, url, eventTypes: ['order/paid'] },
      });
      expect({ status: created.status, body: created.body }).toEqual({
        status: 400,
        body: expect.objectContaining(refusal),
      });
      expect(await harness.db.webhookEndpoint.count({ where: { accountId: merchant.accountId, url } })).toBe(0);

      // Public addresses are allowed in test mode over http: the update is refused for the loopback URL alone.
      const endpoint = await call(harness, 'POST', '/api/public/v1/webhooks', {
        token: merchant.token,
        body: { storeId, url: 'http://93.184.216.34/hook', eventTypes: ['order/paid'] },
      });
      expect(endpoint.status).toBe(201);
      const updated = await call(harness, 'PATCH', `/api/public/v1/webhooks/${endpoint.body.id}`, {
        token: merchant.token,
        body: { url },
      });
      expect({ status: updated.status, body: updated.body }).toEqual({
        status: 400,
        body: expect.objectContaining(refusal),
      });
      const stored = await harness.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.body.id } });
      expect(stored.url).toBe('http://93.184.216.34/hook');
      await harness.db.webhookEndpoint.delete({ where: { id: endpoint.body.id } });
    },
  );

  it('checks again at delivery: an endpoint stored with a loopback URL gets nothing, and the attempt says why', async () => {
    const receiver = await startReceiver();
    try {
      // As if it was registered while loopback was allowed, or its host name resolves to loopback since.
      const endpoint = await harness.db.webhookEndpoint.create({
        data: {
          id: newId('webhookEndpoint'),
          accountId: merchant.accountId,
          mode: 'test',
          storeId,
          url: receiver.url,
          eventTypes: ['order/paid'],
          secret: newWebhookSecret(),
        },
      });
      const triggered = await call(harness, 'POST', '/api/public/v1/test/webhooks/trigger', {
        token: merchant.token,
        body: { storeId, eventType: 'order/paid' },
      });
      expect(triggered.status).toBe(202);
      const attempt = await until(
        async () =>
          (await harness.db.webhookDeliveryAttempt.findFirst({
            where: { endpointId: endpoint.id, eventId: triggered.body.eventId },
          })) ?? undefined,
      );
      expect(attempt).toMatchObject({ outcome: 'failed', responseStatus: null, responseSnippet: null });
      expect(attempt.error).toMatch(/loopback receivers are turned off/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.stop();
    }
  });
});
