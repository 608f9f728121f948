import { randomUUID } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { Worker } from '@temporalio/worker';
import { workerTracingOptions } from '../../../src/tracing/temporal';
import { startTracing, type Tracing } from '../../../src/tracing/tracing';
import { testWorkflowBundle } from '../../helpers/workflowBundle';
import { traceHeader } from '../../../workflows/tracing';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { api } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, type PaymentTenant } from '../payments/paymentsFixtures';

async function pay(harness: Harness, t: PaymentTenant): Promise<string> {
  const answer = await call(harness, 'POST', `${api}/payments/process`, {
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
  return answer.body.payment.id as string;
}

/**
 * Refunds the payment: a frictionless payment runs only local activities (they leave no command),
 * while its refund's processor call is an activity scheduled through the server, whose command
 * headers show whether the run carries a trace. Answers the refund's workflow id (its refund id).
 */
async function refund(harness: Harness, t: PaymentTenant, paymentId: string): Promise<string> {
  const answer = await call(harness, 'POST', `${api}/payments/refund`, {
    token: t.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { paymentId, amount: 500 },
  });
  expect(answer.status).toBe(200);
  return answer.body.id as string;
}

/** The header keys of every activity the workflow scheduled through the server (local activities leave no command). */
async function activityHeadersOf(harness: Harness, workflowId: string): Promise<string[][]> {
  const history = await harness.temporal.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .map((event) => event.activityTaskScheduledEventAttributes)
    .filter((attributes) => attributes != null)
    .map((attributes) => Object.keys(attributes.header?.fields ?? {}));
}

describe('tracing: one payment is one trace from the HTTP request to the processor call (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing | undefined;
  let harness: Harness;
  let t: PaymentTenant;

  beforeAll(async () => {
    tracing = await startTracing({
      serviceName: 'payment-engine-test',
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    harness = await startHarness();
    t = await createPaymentTenant(harness);
  });
  afterAll(async () => {
    await harness?.stop();
    await tracing?.stop();
  });

  /** The finished spans of the trace the payment's workflow run belongs to, once its workflow span arrived. */
  async function traceOf(paymentId: string): Promise<ReadableSpan[]> {
    // Workflow spans reach the worker's sink when the workflow task that ends them completes.
    const run = await until(() =>
      exporter
        .getFinishedSpans()
        .find((span) => span.name === 'RunWorkflow:paymentWorkflow' && span.attributes.workflowId === paymentId),
    );
    const traceId = run.spanContext().traceId;
    return exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  }

  it('holds the HTTP server span, the workflow spans, the activity spans and the processor call, each under its parent', async () => {
    const paymentId = await pay(harness, t);
    const spans = await traceOf(paymentId);
    const names = spans.map((span) => span.name);

    const roots = spans.filter((span) => !span.parentSpanContext);
    expect(roots.map((span) => span.name)).toEqual(['POST /api/public/v1/payments/process']);
    const [http] = roots;
    expect(http!.kind).toBe(SpanKind.SERVER);
    expect(http!.attributes).toMatchObject({
      'http.route': '/api/public/v1/payments/process',
      'http.response.status_code': 200,
    });

    expect(names).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^UpdateWithStartWorkflow:/),
        'RunWorkflow:paymentWorkflow',
        'StartActivity:authorizeAttempt',
        'RunActivity:authorizeAttempt',
        'processor.authorize',
      ]),
    );
    // One tree: every span's parent is in the same trace.
    const ids = new Set(spans.map((span) => span.spanContext().spanId));
    for (const span of spans.filter((s) => s !== http)) expect(ids.has(span.parentSpanContext!.spanId)).toBe(true);

    const processorCall = spans.find((span) => span.name === 'processor.authorize')!;
    expect(processorCall.kind).toBe(SpanKind.CLIENT);
    expect(processorCall.attributes).toMatchObject({
      'processor.id': t.processorIds[0],
      'processor.type': 'sandbox',
      'processor.outcome': 'approved',
    });
    const parentOf = (span: ReadableSpan) =>
      spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);
    const chain: string[] = [];
    for (let span: ReadableSpan | undefined = processorCall; span; span = parentOf(span)) chain.unshift(span.name);
    expect(chain).toEqual([
      'POST /api/public/v1/payments/process',
      expect.stringMatching(/^UpdateWithStartWorkflow:/),
      expect.stringMatching(/^(RunWorkflow|HandleUpdate):/),
      'StartActivity:authorizeAttempt',
      'RunActivity:authorizeAttempt',
      'processor.authorize',
    ]);

    // Every span of this payment's workflow is in this one trace.
    const ofPayment = exporter.getFinishedSpans().filter((span) => span.attributes.workflowId === paymentId);
    expect(new Set(ofPayment.map((span) => span.spanContext().traceId))).toEqual(
      new Set([http!.spanContext().traceId]),
    );

    // Workflow spans keep only attributes a span can carry (the sink merges the whole workflow info in).
    const nested = spans.flatMap((span) =>
      Object.entries(span.attributes).filter(([, value]) => typeof value === 'object' && !Array.isArray(value)),
    );
    expect(nested).toEqual([]);
    // No card number, API key or processor credential in any span.
    const exported = JSON.stringify(
      spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
    );
    expect(exported).not.toContain(cards.approve);
    expect(exported).not.toContain(t.token);
    expect(exported).not.toContain(t.acquirerMerchant[t.processorIds[0]!]!);
  });

  it("carries the trace in the workflow's history, which replays with the bundled interceptors", async () => {
    expect(traceHeader).toBe(TRACE_HEADER);
    const paymentId = await pay(harness, t);
    const refundId = await refund(harness, t, paymentId);
    const headers = await activityHeadersOf(harness, refundId);
    expect(headers.length).toBeGreaterThan(0);
    expect(headers.every((keys) => keys.includes(traceHeader))).toBe(true);
    const { sinks } = workerTracingOptions();
    for (const workflowId of [paymentId, refundId]) {
      const history = await harness.temporal.workflow.getHandle(workflowId).fetchHistory();
      await expect(
        Worker.runReplayHistory({ workflowBundle: await testWorkflowBundle(), sinks }, history, workflowId),
      ).resolves.toBeUndefined();
    }
  });

  it('with tracing off, adds no header to the commands a workflow issues', async () => {
    await tracing!.stop();
    tracing = undefined;
    const untraced = await startHarness();
    try {
      const other = await createPaymentTenant(untraced);
      const paymentId = await pay(untraced, other);
      const headers = await activityHeadersOf(untraced, await refund(untraced, other, paymentId));
      expect(headers.length).toBeGreaterThan(0);
      expect(headers.flat()).not.toContain(traceHeader);
    } finally {
      await untraced.stop();
    }
  });
});
