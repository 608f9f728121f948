import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { startStripeSimulator, type RunningStripeSimulator } from '../../../simulators/vendors/stripe/server';
import { api, ok } from '../commerce/commerceHelpers';
import { createPaymentTenant, tenantApi, type PaymentTenant } from './paymentsFixtures';

/** A webhook receiver standing in for the engine: keeps each body and its Stripe-Signature as received. */
async function startCapture() {
  const received: { body: string; signature: string; type: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const type = (JSON.parse(body) as { type: string }).type;
      received.push({ body, signature: String(req.headers['stripe-signature']), type });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Stripe's asynchronous refund outcomes through the engine over real HTTP: the Stripe simulator
 * POSTs signed events (`Stripe-Signature`) to the engine's processor-webhook route.
 */
describe('Stripe webhooks (Postgres, dev server, Stripe simulator)', () => {
  let harness: Harness;
  let stripe: RunningStripeSimulator;
  let capture: Awaited<ReturnType<typeof startCapture>>;
  let t: PaymentTenant;
  let processorId: string;
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'A')}`;
  const webhookPath = () => `${api}/processor-webhooks/${processorId}`;

  const control = async (path: string, body: Record<string, unknown>) => {
    const answer = await fetch(`${stripe.url}/_simulator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secretKey, ...body }),
    });
    expect(answer.status).toBeLessThan(300);
  };
  const sendEventsTo = (url: string) => control('webhooks', { url, webhookSecret });

  beforeAll(async () => {
    stripe = await startStripeSimulator();
    capture = await startCapture();
    harness = await startHarness();
    t = await createPaymentTenant(harness, { processors: 2 });
    processorId = t.processorIds[0]!;
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId,
      updatedData: { name: 'Stripe', type: 'stripe', credentials: { secretKey, webhookSecret, endpoint: stripe.url } },
    });
    await sendEventsTo(`${harness.url}${webhookPath()}`);
  });
  afterAll(async () => {
    await harness?.stop();
    await stripe?.stop();
    await capture?.stop();
  });

  const post = (path: string, body: Record<string, unknown>) => tenantApi(harness, t).post(path, body);
  const purchase = async (card: string, amount: number) => {
    const answer = await tenantApi(harness, t).process(card, amount, 'purchase');
    expect(answer.body.payment).toMatchObject({ status: 'succeeded' });
    return answer.body.payment.id as string;
  };
  const refundRow = (id: string) => harness.db.refund.findUniqueOrThrow({ where: { id } });
  const payment = (id: string) => harness.db.payment.findUniqueOrThrow({ where: { id } });
  const refundedEvents = async (refundId: string) =>
    (await harness.db.event.findMany({ where: { accountId: t.merchant.accountId, eventType: 's_payment_refunded' } }))
      .map((event) => event.properties as { refundId: string })
      .filter((properties) => properties.refundId === refundId);
  const deliver = (body: string, signature: string | undefined, path = webhookPath()) =>
    call(harness, 'POST', path, {
      raw: body,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
    });

  it('a pending refund succeeds on refund.updated; charge.refund.updated for the same change changes nothing', async () => {
    // Stripe settles once the refund was answered: a timer could beat the answer on a loaded machine.
    await control('pending-refunds', { settleAfterMs: null });
    try {
      const paymentId = await purchase('4000000000007726', 1000);
      const refund = await post('/payments/refund', { paymentId, amount: 400 });
      expect(refund.status).toBe(202);
      const refundId = refund.body.id as string;
      const stripeRefundId = (await refundRow(refundId)).processorReference!;
      await control(`refunds/${stripeRefundId}/settle`, { status: 'succeeded' });
      const outcome = await harness.temporal.workflow.getHandle(refundId).result();
      expect(outcome).toMatchObject({ kind: 'done', succeeded: true, paymentStatus: 'partially_refunded' });
      expect(await refundRow(refundId)).toMatchObject({ status: 'succeeded' });
      const rows = await until(async () => {
        const found = await harness.db.processorWebhookEvent.findMany({ where: { refundId } });
        return found.length === 2 ? found : undefined;
      });
      expect(rows.map((row) => [row.vendorType, row.effect]).sort()).toEqual([
        ['charge.refund.updated', 'already_settled'],
        ['refund.updated', 'settled'],
      ]);
      expect(await refundedEvents(refundId)).toHaveLength(1);
    } finally {
      await control('pending-refunds', { settleAfterMs: 50 });
    }
  });

  it('a pending refund that Stripe fails (refund.failed) fails and gives its amount back', async () => {
    await control('pending-refunds', { settleAfterMs: null });
    try {
      const paymentId = await purchase('4000000000007726', 900);
      const refund = await post('/payments/refund', { paymentId });
      expect(refund.status).toBe(202);
      const refundId = refund.body.id as string;
      expect(await payment(paymentId)).toMatchObject({ amountRefunded: 900 });
      const stripeRefundId = (await refundRow(refundId)).processorReference!;
      await control(`refunds/${stripeRefundId}/settle`, { status: 'failed' });
      const outcome = await harness.temporal.workflow.getHandle(refundId).result();
      expect(outcome).toMatchObject({ kind: 'done', succeeded: false, code: 'refund_failed' });
      expect(await refundRow(refundId)).toMatchObject({ status: 'failed', failureCode: 'refund_failed' });
      expect(await payment(paymentId)).toMatchObject({ status: 'succeeded', amountRefunded: 0 });
      expect(await refundedEvents(refundId)).toEqual([]);
    } finally {
      await control('pending-refunds', { settleAfterMs: 50 });
    }
  });

  it('a refund Stripe confirmed and then fails (refund.failed) reopens the amount', async () => {
    // The failure is sent once the refund was answered (a timer could beat the answer on a loaded machine).
    await control('pending-refunds', { settleAfterMs: null });
    try {
      const paymentId = await purchase('4000000000005126', 700);
      const refund = await post('/payments/refund', { paymentId });
      expect(refund.status).toBe(200);
      expect(refund.body).toMatchObject({ status: 'succeeded', payment: { status: 'refunded' } });
      const refundId = refund.body.id as string;
      const stripeRefundId = (await refundRow(refundId)).processorReference!;
      await control(`refunds/${stripeRefundId}/settle`, { status: 'failed' });
      const failed = await until(async () => {
        const row = await refundRow(refundId);
        return row.status === 'failed' ? row : undefined;
      });
      expect(failed.failureCode).toBe('refund_reversed');
      expect(await payment(paymentId)).toMatchObject({ status: 'succeeded', amountRefunded: 0 });
      // Refundable again.
      const again = await post('/payments/refund', { paymentId, amount: 700 });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ amount: 700, paymentId });
    } finally {
      await control('pending-refunds', { settleAfterMs: 50 });
    }
  });

  it('charge.dispute.created records a dispute', async () => {
    const paymentId = await purchase('4000000000000259', 1200);
    const disputes = await until(async () => {
      const rows = await harness.db.dispute.findMany({ where: { paymentId } });
      return rows.length > 0 ? rows : undefined;
    });
    expect(disputes).toEqual([
      expect.objectContaining({ amount: 1200, reason: 'fraudulent', status: 'needs_response' }),
    ]);
  });

  it('charge.dispute.closed (won) closes the dispute its created event opened, with s_payment_dispute_closed', async () => {
    const paymentId = await purchase('4000000000000259', 1300);
    const [dispute] = await until(async () => {
      const rows = await harness.db.dispute.findMany({ where: { paymentId } });
      return rows.length > 0 ? rows : undefined;
    });
    expect(dispute!.processorReference).toMatch(/^dp_/);
    await control(`disputes/${dispute!.processorReference!}/close`, { status: 'won' });
    const closed = await until(async () => {
      const row = await harness.db.dispute.findUniqueOrThrow({ where: { id: dispute!.id } });
      return row.status === 'won' ? row : undefined;
    });
    expect(closed).toMatchObject({ amount: 1300, reason: 'fraudulent' });
    const events = (
      await harness.db.event.findMany({
        where: { accountId: t.merchant.accountId, eventType: 's_payment_dispute_closed' },
      })
    ).filter((event) => (event.properties as { paymentId?: string }).paymentId === paymentId);
    expect(events.map((event) => event.properties)).toEqual([
      { paymentId, disputeId: dispute!.id, amount: 1300, currency: 'EUR', reason: 'fraudulent', status: 'won' },
    ]);
  });

  it('10 identical deliveries at once have one effect: one event row, one state change, one merchant event', async () => {
    await control('pending-refunds', { settleAfterMs: null });
    await sendEventsTo(capture.url);
    try {
      const paymentId = await purchase('4000000000007726', 500);
      const refund = await post('/payments/refund', { paymentId });
      const refundId = refund.body.id as string;
      await control(`refunds/${(await refundRow(refundId)).processorReference!}/settle`, { status: 'succeeded' });
      const event = await until(() => capture.received.find((one) => one.type === 'refund.updated'));
      const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(event.body, event.signature)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      expect(answers.reduce((sum, answer) => sum + (answer.body.applied as number), 0)).toBe(1);
      const vendorEventId = (JSON.parse(event.body) as { id: string }).id;
      expect(await harness.db.processorWebhookEvent.count({ where: { processorId, vendorEventId } })).toBe(1);
      expect(await refundRow(refundId)).toMatchObject({ status: 'succeeded' });
      expect(await payment(paymentId)).toMatchObject({ status: 'refunded', amountRefunded: 500 });
      expect(await refundedEvents(refundId)).toHaveLength(1);
      // A redelivery later is still a duplicate.
      expect((await deliver(event.body, event.signature)).body).toMatchObject({ applied: 0, duplicates: 1 });
    } finally {
      await control('pending-refunds', { settleAfterMs: 50 });
      await sendEventsTo(`${harness.url}${webhookPath()}`);
    }
  });

  it('refuses what it cannot trust or use, in the error shape, and changes nothing', async () => {
    const signed = capture.received.find((one) => one.type === 'refund.updated');
    expect(signed).toBeDefined();
    const { body, signature } = signed!;
    const tampered = body.replace('"amount":500', '"amount":5');
    expect(tampered).not.toBe(body);
    const refusals = [
      [await deliver(tampered, signature), 401, 'INVALID_SIGNATURE'],
      [await deliver(body, undefined), 401, 'INVALID_SIGNATURE'],
      [await deliver(body, signature.replace(/v1=[0-9a-f]{4}/, 'v1=0000')), 401, 'INVALID_SIGNATURE'],
      [await deliver(body, signature, `${api}/processor-webhooks/proc_${'x'.repeat(20)}`), 404, 'NOT_FOUND'],
      [await deliver(body, signature, `${api}/processor-webhooks/${t.processorIds[1]}`), 400, 'WEBHOOKS_NOT_SUPPORTED'],
    ] as const;
    for (const [answer, status, code] of refusals) {
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ code, message: expect.any(String) });
    }
    const withoutSecret = await ok(harness, 'POST', '/processors', t.token, {
      name: 'Stripe without webhooks',
      type: 'stripe',
      credentials: { secretKey, endpoint: stripe.url },
      supportedCurrencies: ['EUR'],
      baseCurrency: 'EUR',
    });
    const noSecret = await deliver(body, signature, `${api}/processor-webhooks/${withoutSecret.id}`);
    expect(noSecret.status).toBe(409);
    expect(noSecret.body).toMatchObject({ code: 'WEBHOOK_SECRET_MISSING' });
    expect(await harness.db.processorWebhookEvent.count({ where: { processorId: withoutSecret.id } })).toBe(0);
  });
});
