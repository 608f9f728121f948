import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../temporal/devServer';
import { startApiProcess, type ApiProcess } from '../../helpers/apiProcess';
import { crash, spawnRole, waitFor, type EngineProcess } from '../../helpers/engineProcess';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { startOtlpCollector, type CollectedSpan, type OtlpCollector } from '../../helpers/otlpCollector';
import { until } from '../../helpers/until';
import { api } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, type PaymentTenant } from '../payments/paymentsFixtures';
import { testVaultEnv } from '../subscriptions/subscriptionsFixtures';

/** The value of the series `name` whose labels include `labels`, summed over the other labels; undefined when absent. */
function sampleSum(text: string, name: string, labels: Record<string, string>): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => present.includes(`${key}="${value}"`)))
      sum = (sum ?? 0) + Number(match[3]);
  }
  return sum;
}

const scrape = async (url: string) => (await fetch(url)).text();

/**
 * The production shape: `npm run api` and `npm run worker` as processes of their own against the
 * test run's Postgres and dev server, both exporting traces to an OTLP collector (a stand-in over
 * real HTTP), the worker serving its payment metrics (WORKER_METRICS_PORT) and the Temporal SDK's
 * (TEMPORAL_METRICS_PORT).
 */
describe('npm run api + npm run worker: one trace per payment across both processes, and the worker metrics', () => {
  let harness: Harness;
  let collector: OtlpCollector;
  let worker: EngineProcess;
  let apiProcess: ApiProcess;
  let t: PaymentTenant;
  let dataDir: string;
  let paymentId: string;
  const ports = { temporal: 0, worker: 0 };

  beforeAll(async () => {
    harness = await startHarness(testVaultEnv);
    collector = await startOtlpCollector();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-observability-'));
    ports.temporal = await freePort();
    ports.worker = await freePort();
    const shared = {
      ...testVaultEnv,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: `observability-${process.pid}-${Date.now()}`,
      SANDBOX_URL: harness.sandboxUrl,
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    worker = spawnRole('worker', {
      ...shared,
      LOG_LEVEL: 'info',
      TEMPORAL_METRICS_PORT: String(ports.temporal),
      WORKER_METRICS_PORT: String(ports.worker),
    });
    await waitFor('the worker to poll', () => worker.messages().includes('worker polling'), worker, 120_000);
    apiProcess = await startApiProcess(await freePort(), shared as Record<string, string>);
    t = await createPaymentTenant(harness);

    const answer = await call(apiProcess, 'POST', `${api}/payments/process`, {
      token: t.token,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        storeId: t.storeId,
        customerId: t.customerId,
        currency: 'EUR',
        amount: 1500,
        mode: 'purchase',
        paymentInstrumentId: await t.instrument(cards.approve),
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.payment.status).toBe('succeeded');
    paymentId = answer.body.payment.id as string;
  }, 240_000);

  afterAll(async () => {
    await apiProcess?.kill();
    if (worker) await crash(worker);
    await collector?.stop();
    await harness?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exports the API and worker spans of the payment as one trace to the collector, and no other trace', async () => {
    const run = await until(() =>
      collector
        .spans()
        .find((span) => span.name === 'RunWorkflow:paymentWorkflow' && span.attributes.workflowId === paymentId),
    );
    const inTrace = () => collector.spans().filter((span) => span.traceId === run.traceId);
    // The API's spans come in its own batches.
    const spans = await until(() => {
      const spans = inTrace();
      return spans.some((span) => span.service === 'payment-engine-api') &&
        spans.some((span) => span.name === 'processor.authorize')
        ? spans
        : undefined;
    });
    const roots = spans.filter((span) => !span.parentSpanId);
    expect(roots.map(({ service, name }) => ({ service, name }))).toEqual([
      { service: 'payment-engine-api', name: 'POST /api/public/v1/payments/process' },
    ]);
    const ids = new Set(spans.map((span) => span.spanId));
    expect(spans.filter((span) => span.parentSpanId && !ids.has(span.parentSpanId))).toEqual([]);
    const by = (name: string) => spans.find((span) => span.name === name);
    expect(by('RunWorkflow:paymentWorkflow')!.service).toBe('payment-engine-worker');
    expect(by('RunActivity:authorizeAttempt')!.service).toBe('payment-engine-worker');
    expect(by('processor.authorize')).toMatchObject<Partial<CollectedSpan>>({
      service: 'payment-engine-worker',
      attributes: expect.objectContaining({
        'processor.id': t.processorIds[0],
        'processor.type': 'sandbox',
        'processor.outcome': 'approved',
      }),
    });
    // Nothing else makes a trace: not the worker's start-up, its sweepers every 30 s, nor health probes.
    expect(new Set(collector.spans().map((span) => span.traceId))).toEqual(new Set([run.traceId]));
    const exported = JSON.stringify(spans);
    expect(exported).not.toContain(cards.approve);
    expect(exported).not.toContain(t.token);
  });

  it("serves the Temporal SDK's metrics on TEMPORAL_METRICS_PORT once a workflow ran", async () => {
    const url = `http://127.0.0.1:${ports.temporal}/metrics`;
    const completed = await until(async () => {
      const value = sampleSum(await scrape(url), 'temporal_workflow_completed', { workflow_type: 'paymentWorkflow' });
      return value !== undefined && value >= 1 ? value : undefined;
    });
    expect(completed).toBeGreaterThanOrEqual(1);
    const text = await scrape(url);
    expect(
      // The authorization runs as a local activity in the payment's first workflow task.
      sampleSum(text, 'temporal_local_activity_execution_latency_count', { activity_type: 'authorizeAttempt' }),
    ).toBeGreaterThanOrEqual(1);
    expect(worker.messages()).toContain('temporal sdk metrics listening');
  });

  it('serves the payment metrics of its activities on WORKER_METRICS_PORT', async () => {
    const text = await scrape(`http://127.0.0.1:${ports.worker}/metrics`);
    expect(sampleSum(text, 'payments_total', { status: 'succeeded', processor: 'sandbox' })).toBeGreaterThanOrEqual(1);
    expect(
      sampleSum(text, 'payment_attempts_total', { processor: 'sandbox', outcome: 'approved' }),
    ).toBeGreaterThanOrEqual(1);
    expect(worker.messages()).toContain('worker metrics listening');
  });
});
