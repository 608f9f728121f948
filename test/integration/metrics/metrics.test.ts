import { randomUUID } from 'node:crypto';
import { call, startHarness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards } from '../payments/paymentsFixtures';
import { testVaultEnv } from '../subscriptions/subscriptionsFixtures';
import { startReceiver, type Receiver } from '../webhooks/webhookReceiver';

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2]!.split(/,(?=[a-z_]+=")/);
    if (present.length === wanted.length && wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics (Prometheus text) after payments, a decline, a refund and a webhook', () => {
  const harness = useHarness({ ...testVaultEnv, WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
  const t = usePaymentTenant(harness, { processors: 2 });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const scrape = async () => {
    const answer = await fetch(`${harness.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    return answer.text();
  };
  const pay = async (card: string, idempotencyKey = randomUUID(), paymentInstrumentId?: string) =>
    call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      headers: { 'idempotency-key': idempotencyKey },
      body: {
        storeId: t.storeId,
        customerId: t.customerId,
        currency: 'EUR',
        amount: 1500,
        mode: 'purchase',
        paymentInstrumentId: paymentInstrumentId ?? (await t.instrument(card)),
      },
    });

  it('counts payments by status, decline code and processor type; attempts, cascades, refunds, replays, webhooks and HTTP routes', async () => {
    const webhook = await call(harness, 'POST', `${api}/webhooks`, {
      token: t.token,
      body: { storeId: t.storeId, url: receiver.url, eventTypes: ['payment/succeeded'], description: 'metrics' },
    });
    expect(webhook.status).toBe(201);

    const key = randomUUID();
    const card = await t.instrument(cards.approve);
    const approved = await pay(cards.approve, key, card);
    expect(approved.status).toBe(200);
    expect(approved.body.payment.status).toBe('succeeded');
    const replayed = await pay(cards.approve, key, card);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    const declined = await pay(cards.softDecline);
    expect(declined.status).toBe(402);
    expect(declined.body.data.status).toBe('failed');
    const declineCode = declined.body.data.declineCode as string;
    const declinedId = declined.body.data.paymentId as string;
    expect(declineCode).toEqual(expect.any(String));

    const refund = await call(harness, 'POST', `${api}/payments/refund`, {
      token: t.token,
      headers: { 'idempotency-key': randomUUID() },
      body: { paymentId: approved.body.payment.id, amount: 500 },
    });
    expect(refund.status).toBe(200);
    const read = await call(harness, 'GET', `${api}/payments/${declinedId}`, { token: t.token });
    expect(read.status).toBe(200);
    await until(() => (receiver.received.length > 0 ? true : undefined));

    // The delivery is counted once its attempt is recorded, just after the receiver answered.
    const text = await until(async () => {
      const scraped = await scrape();
      const delivered = sample(scraped, 'webhook_deliveries_total', { outcome: 'succeeded', endpoint_status: '2xx' });
      return delivered === 1 ? scraped : undefined;
    }, 10_000);

    expect(sample(text, 'payments_total', { status: 'succeeded', decline_code: '', processor: 'sandbox' })).toBe(1);
    expect(sample(text, 'payments_total', { status: 'failed', decline_code: declineCode, processor: 'sandbox' })).toBe(
      1,
    );
    expect(sample(text, 'payment_duration_seconds_count', { status: 'succeeded' })).toBe(1);
    expect(sample(text, 'payment_attempts_total', { processor: 'sandbox', outcome: 'approved' })).toBe(1);
    // The soft decline at the first processor cascades to the second, which declines it too.
    expect(sample(text, 'payment_attempts_total', { processor: 'sandbox', outcome: 'declined' })).toBe(2);
    expect(sample(text, 'payment_cascades_total', { processor: 'sandbox' })).toBe(1);
    expect(sample(text, 'refunds_total', { status: 'succeeded' })).toBe(1);
    expect(sample(text, 'idempotent_replays_total', { api: '/api/public/v1' })).toBe(1);
    expect(
      sample(text, 'http_requests_total', {
        method: 'GET',
        route: '/api/public/v1/payments/:paymentId',
        status: '200',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/public/v1/payments/process',
        status: '200',
      }),
    ).toBe(2);
    // The first answer and its replay: a replay is answered by its route, after the caller is authorized.
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '(unrouted)', status: '200' })).toBeUndefined();
    expect(
      sample(text, 'http_requests_total', { method: 'POST', route: '/api/public/v1/payments/process', status: '402' }),
    ).toBe(1);
    // Route templates only: no payment id ever becomes a label value.
    expect(text).not.toContain(approved.body.payment.id);
    expect(text).not.toContain(declinedId);
  });

  it('needs no API key, and METRICS_ENABLED=false turns it off', async () => {
    expect((await fetch(`${harness.url}/metrics`)).status).toBe(200);
    const off = await startHarness({ METRICS_ENABLED: 'false' });
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});
