import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../../activities';
import { parseConfig } from '../../../src/config';
import { createPrismaClient, type Db } from '../../../src/db/prisma';
import { newId } from '../../../src/domain/ids';
import { recordEvent } from '../../../src/events/recordEvent';
import { createLogger } from '../../../src/logging/logger';
import { newWebhookSecret } from '../../../src/webhooks/signing';
import { webhookDeliveryWorkflow } from '../../../workflows/webhooks/delivery';
import { createMerchant } from '../../helpers/fixtures';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';

const day = 24 * 3600 * 1000;

/** A loopback receiver that answers `answer(simulatedElapsedMs)` and remembers every request. */
async function startReceiver(env: TestWorkflowEnvironment, answer: (elapsedMs: number) => number) {
  const startedAt = Number(await env.currentTimeMs());
  const received: { elapsedMs: number; status: number; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void env.currentTimeMs().then((now) => {
        const elapsedMs = Number(now) - startedAt;
        const status = answer(elapsedMs);
        received.push({ elapsedMs, status, headers: req.headers, body });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'receiver down');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('webhook delivery workflow (time skipping, real activities and database)', () => {
  let env: TestWorkflowEnvironment;
  let db: Db;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    db = createPrismaClient(process.env.TEST_DATABASE_URL!, 4);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await env?.teardown();
  });

  async function setUp(url: string, failureRecord: { failingSince?: Date; lastFailedAt?: Date } = {}) {
    const merchant = await createMerchant(db, { mode: 'test' });
    const storeId = newId('store');
    await db.store.create({
      data: {
        id: storeId,
        accountId: merchant.accountId,
        mode: 'test',
        name: 'Shop',
        baseCurrency: 'USD',
        presentmentCurrencies: ['USD'],
      },
    });
    const endpoint = await db.webhookEndpoint.create({
      data: {
        id: newId('webhookEndpoint'),
        accountId: merchant.accountId,
        mode: 'test',
        storeId,
        url,
        eventTypes: ['order/paid'],
        secret: newWebhookSecret(),
        ...failureRecord,
      },
    });
    const event = await recordEvent(db, {
      accountId: merchant.accountId,
      mode: 'test',
      storeId,
      eventType: 's_order_paid',
      properties: { orderId: 'ord_x', amount: 1999, currency: 'USD', paymentId: 'pay_x' },
    });
    const activities = createActivities({
      db,
      logger: createLogger('silent'),
      config: parseConfig({
        NODE_ENV: 'test',
        TEMPORAL_TASK_QUEUE: 'unused-no-other-endpoints',
        // The receivers here listen on loopback.
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      }),
      sandboxUrl: 'http://127.0.0.1:9',
      temporal: env.client,
    });
    return { merchant, storeId, endpoint, event, activities };
  }

  it('keeps retrying while the receiver is down for 2 simulated days, then delivers once', async () => {
    const receiver = await startReceiver(env, (elapsed) => (elapsed < 2 * day ? 503 : 200));
    const { endpoint, event, activities } = await setUp(receiver.url);
    try {
      const realStart = Date.now();
      const outcome = await withWorker(env, activities, (taskQueue) =>
        env.client.workflow.execute(webhookDeliveryWorkflow, {
          workflowId: `whd_${event.id}_${endpoint.id}`,
          taskQueue,
          args: [{ eventId: event.id, endpointId: endpoint.id }],
        }),
      );
      expect(Date.now() - realStart).toBeLessThan(60_000);
      const delivered = receiver.received.filter((request) => request.status === 200);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]!.elapsedMs).toBeGreaterThanOrEqual(2 * day);
      expect(outcome).toMatchObject({ status: 'delivered', receiverStatus: 200, attempt: receiver.received.length });

      // Backoff grows exponentially and is capped at 6 hours: ~15 attempts across 2 days, not a tight loop.
      const gaps = receiver.received.slice(1).map((request, i) => request.elapsedMs - receiver.received[i]!.elapsedMs);
      expect(gaps[0]).toBeGreaterThanOrEqual(55_000);
      expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(6 * 3600 * 1000 + 60_000);
      expect(receiver.received.length).toBeGreaterThan(8);
      expect(receiver.received.length).toBeLessThan(25);

      // Same event id on every attempt, attempt numbers counting up.
      expect(new Set(receiver.received.map((request) => request.headers['x-webhook-event-id']))).toEqual(
        new Set([event.id]),
      );
      expect(receiver.received.map((request) => Number(request.headers['x-webhook-attempt']))).toEqual(
        receiver.received.map((_, i) => i + 1),
      );

      const attempts = await db.webhookDeliveryAttempt.findMany({
        where: { eventId: event.id },
        orderBy: { attempt: 'asc' },
      });
      expect(attempts).toHaveLength(receiver.received.length);
      expect(attempts.filter((attempt) => attempt.outcome === 'succeeded')).toHaveLength(1);
      expect(attempts.at(-1)).toMatchObject({ outcome: 'succeeded', responseStatus: 200, responseSnippet: 'ok' });
      expect(attempts[0]).toMatchObject({
        outcome: 'failed',
        responseStatus: 503,
        responseSnippet: 'receiver down',
        error: 'HTTP 503',
      });
      const after = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(after).toMatchObject({ enabled: true, failingSince: null });
    } finally {
      await receiver.stop();
    }
  });

  it('disables an endpoint that fails for 3 days straight and emits s_webhook_endpoint_disabled', async () => {
    const receiver = await startReceiver(env, () => 500);
    const { merchant, endpoint, event, activities } = await setUp(receiver.url);
    try {
      const outcome = await withWorker(env, activities, (taskQueue) =>
        env.client.workflow.execute(webhookDeliveryWorkflow, {
          workflowId: `whd_${event.id}_${endpoint.id}`,
          taskQueue,
          args: [{ eventId: event.id, endpointId: endpoint.id }],
        }),
      );
      const lastElapsed = receiver.received.at(-1)!.elapsedMs;
      // Streaks are measured between attempts' scheduled times: the first attempt scheduled 3 days
      // or more after the first failure ends it, so the last request lands within 3 days + 2 × 6 h.
      expect(lastElapsed).toBeGreaterThanOrEqual(3 * day);
      expect(lastElapsed).toBeLessThan(3 * day + 12 * 3600 * 1000);
      expect(receiver.received.length).toBeLessThan(25);
      expect(outcome).toMatchObject({ status: 'failed', endpointDisabled: true });

      const after = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(after.enabled).toBe(false);
      expect(after.disabledReason).toMatch(/3 days/);
      const emitted = await db.event.findMany({
        where: { accountId: merchant.accountId, eventType: 's_webhook_endpoint_disabled' },
      });
      expect(emitted).toHaveLength(1);
      expect(emitted[0]!.properties).toMatchObject({
        endpointId: endpoint.id,
        reason: 'failing',
        lastEventId: event.id,
      });
      expect(emitted[0]!.id).toBe((outcome as { disabledEventId: string }).disabledEventId);
      // The disabled event went through dispatch (no other endpoint is subscribed, so nothing started).
      expect(emitted[0]!.processedAt).not.toBeNull();
      expect(await db.webhookDeliveryAttempt.count({ where: { eventId: event.id, outcome: 'failed' } })).toBe(
        receiver.received.length,
      );
    } finally {
      await receiver.stop();
    }
  });

  it('disables at once on 410 Gone without retrying', async () => {
    const receiver = await startReceiver(env, () => 410);
    const { endpoint, event, activities } = await setUp(receiver.url);
    try {
      const outcome = await withWorker(env, activities, (taskQueue) =>
        env.client.workflow.execute(webhookDeliveryWorkflow, {
          workflowId: `whd_${event.id}_${endpoint.id}`,
          taskQueue,
          args: [{ eventId: event.id, endpointId: endpoint.id }],
        }),
      );
      expect(receiver.received).toHaveLength(1);
      expect(outcome).toMatchObject({ status: 'failed', endpointDisabled: true });
      expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
        enabled: false,
        disabledReason: 'receiver answered 410 Gone',
      });
    } finally {
      await receiver.stop();
    }
  });

  it('retries a 4xx other than 410: 404, then 200 a minute later, is delivered on the second attempt', async () => {
    let requests = 0;
    const receiver = await startReceiver(env, () => (++requests === 1 ? 404 : 200));
    const { endpoint, event, activities } = await setUp(receiver.url);
    try {
      const outcome = await withWorker(env, activities, (taskQueue) =>
        env.client.workflow.execute(webhookDeliveryWorkflow, {
          workflowId: `whd_${event.id}_${endpoint.id}`,
          taskQueue,
          args: [{ eventId: event.id, endpointId: endpoint.id }],
        }),
      );
      expect(outcome).toMatchObject({ status: 'delivered', attempt: 2, receiverStatus: 200 });
      expect(receiver.received.map((request) => request.status)).toEqual([404, 200]);
      expect(receiver.received[1]!.elapsedMs - receiver.received[0]!.elapsedMs).toBeGreaterThanOrEqual(55_000);
      const attempts = await db.webhookDeliveryAttempt.findMany({
        where: { eventId: event.id },
        orderBy: { attempt: 'asc' },
      });
      expect(attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.responseStatus])).toEqual([
        [1, 'failed', 404],
        [2, 'succeeded', 200],
      ]);
      expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
        enabled: true,
        failingSince: null,
      });
    } finally {
      await receiver.stop();
    }
  });

  it('a failure after an idle period starts a new streak: an old failingSince does not disable the endpoint at once', async () => {
    let requests = 0;
    const receiver = await startReceiver(env, () => (++requests === 1 ? 500 : 200));
    // A streak opened 5 days ago whose last failure was 4 days ago: nothing failed since.
    const now = Number(await env.currentTimeMs());
    const { merchant, endpoint, event, activities } = await setUp(receiver.url, {
      failingSince: new Date(now - 5 * day),
      lastFailedAt: new Date(now - 4 * day),
    });
    try {
      const outcome = await withWorker(env, activities, (taskQueue) =>
        env.client.workflow.execute(webhookDeliveryWorkflow, {
          workflowId: `whd_${event.id}_${endpoint.id}`,
          taskQueue,
          args: [{ eventId: event.id, endpointId: endpoint.id }],
        }),
      );
      expect(outcome).toMatchObject({ status: 'delivered', attempt: 2 });
      expect(receiver.received.map((request) => request.status)).toEqual([500, 200]);
      expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
        enabled: true,
        disabledReason: null,
        failingSince: null,
      });
      expect(
        await db.event.count({ where: { accountId: merchant.accountId, eventType: 's_webhook_endpoint_disabled' } }),
      ).toBe(0);
    } finally {
      await receiver.stop();
    }
  });
});
