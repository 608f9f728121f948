import os from 'node:os';
import { MockActivityEnvironment } from '@temporalio/testing';
import path from 'node:path';
import { createActivities } from '../../activities';
import { parseConfig } from '../../src/config';
import { provideDatabase } from '../../src/db/database';
import { createPrismaClient } from '../../src/db/prisma';
import { newId } from '../../src/domain/ids';
import { planRoute } from '../../src/domain/routing';
import { createLogger } from '../../src/logging/logger';
import { startApi } from '../../src/runtime/api';
import { Lifecycle } from '../../src/runtime/shutdown';
import { provideTemporal } from '../../src/runtime/temporal';
import { installTemporalRuntime } from '../../src/runtime/temporalRuntime';
import { startWorker } from '../../src/runtime/worker';
import { startSandbox } from '../../src/sandbox/server';
import { createTemporalClient } from '../../temporal/connection';
import { createBenchTenant, drive, summary } from './setup';
import { startWorkerProcess } from './workerProcess';

/**
 * `npm run bench`: starts its own engine (embedded Postgres + Temporal dev server under
 * $TMPDIR/payment-engine-bench, on ports of its own, unless DATABASE_URL / TEMPORAL_ADDRESS are set), then drives
 * frictionless pay-v2 charges from BENCH_CLIENTS concurrent clients (default 16) and prints
 * p50/p95/p99 and payments/s; then runs the same steps (prepare, block rules, authorize at the
 * sandbox acquirer, finalize, dispatch) in-process without Temporal as the baseline.
 */
const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const payments = Number(process.env.BENCH_PAYMENTS ?? 400);
const warmup = Number(process.env.BENCH_WARMUP ?? 32);
/** BENCH_WORKER=process: the worker runs as `npm run worker` in its own process (API and load clients stay here). */
const separateWorker = process.env.BENCH_WORKER === 'process';

async function main(): Promise<void> {
  const cfg = parseConfig({
    EMBEDDED_POSTGRES_PORT: '54349',
    TEMPORAL_DEV_SERVER_PORT: '7253',
    TEMPORAL_UI_PORT: '8253',
    TEMPORAL_TASK_QUEUE: 'bench',
    LOG_LEVEL: 'warn',
    ...process.env,
    // Outside .data: the card vault creates .data 0700, which embedded Postgres (run as `postgres` under root) cannot enter.
    DATA_DIR: process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'payment-engine-bench'),
    PORT: '0',
    SANDBOX_PORT: '0',
  });
  const logger = createLogger(cfg.LOG_LEVEL);
  installTemporalRuntime(logger);
  const lifecycle = new Lifecycle(logger);
  try {
    const database = await provideDatabase(cfg, logger);
    lifecycle.add('postgres', database.stop);
    const db = createPrismaClient(database.url);
    lifecycle.add('database pool', () => db.$disconnect());
    const temporal = await provideTemporal(cfg, logger);
    lifecycle.add('temporal', temporal.stop);
    const client = await createTemporalClient(temporal.settings);
    lifecycle.add('temporal client', () => client.connection.close());
    const sandbox = await startSandbox(0);
    lifecycle.add('sandbox', sandbox.stop);
    const deps = { db, logger, config: cfg, sandboxUrl: sandbox.url, temporal: client };
    if (separateWorker) {
      const stopWorker = await startWorkerProcess({
        databaseUrl: database.url,
        temporalAddress: temporal.settings.address,
        taskQueue: cfg.TEMPORAL_TASK_QUEUE,
        sandboxUrl: sandbox.url,
        dataDir: cfg.DATA_DIR,
      });
      lifecycle.add('worker process', stopWorker);
    } else {
      const worker = await startWorker(temporal.settings, cfg.TEMPORAL_TASK_QUEUE, deps);
      lifecycle.add('worker', worker.stop);
    }
    const api = await startApi({ ...deps, taskQueue: cfg.TEMPORAL_TASK_QUEUE }, 0, '127.0.0.1');
    lifecycle.add('api', api.stop);

    // One merchant account per client: the spec's per-account quota (premium: 500/min, burst 750)
    // stays in force, and 16 accounts paying at once is the load the engine is sized for.
    const tenants = await Promise.all(Array.from({ length: clients }, () => createBenchTenant(db, api.url)));
    type Tenant = (typeof tenants)[number];
    const perTenant = Math.ceil((warmup + 2 * payments) / clients);
    process.stdout.write(`engine up; preparing ${perTenant * clients} checkout sessions in ${clients} accounts…\n`);
    const made = await Promise.all(tenants.map((tenant) => tenant.checkouts(perTenant)));
    const sessions: { tenant: Tenant; session: { id: string; total: number; currency: string } }[] = [];
    for (let i = 0; i < perTenant; i++)
      made.forEach((list, t) => sessions.push({ tenant: tenants[t]!, session: list[i]! }));
    const warm = sessions.slice(0, warmup);
    const viaTemporal = sessions.slice(warmup, warmup + payments);
    const inProcess = sessions.slice(warmup + payments, warmup + 2 * payments);

    let lastPaymentId: string | undefined;
    const pay = async ({ tenant, session }: (typeof sessions)[number]): Promise<boolean> => {
      const answer = await tenant.payV2(session.id);
      lastPaymentId = answer.paymentId ?? lastPaymentId;
      return answer.status === 200 && answer.paymentStatus === 'succeeded';
    };
    await drive(warm, clients, pay);
    const engine = summary(`pay-v2 over HTTP + Temporal (${clients} clients)`, await drive(viaTemporal, clients, pay));

    const activities = createActivities(deps);
    const steps = async ({ tenant, session }: (typeof sessions)[number]) => {
      const input = {
        paymentId: newId('payment'),
        accountId: tenant.merchant.accountId,
        mode: 'test' as const,
        storeId: tenant.storeId,
        customerId: tenant.customerId,
        paymentInstrumentId: tenant.instrumentId,
        amount: session.total,
        currency: session.currency,
        intent: 'purchase' as const,
        initiatedBy: 'customer' as const,
        source: 'checkout' as const,
        paymentFlowId: tenant.flowId,
        checkoutSessionId: session.id,
      };
      const prepared = await activities.preparePayment(input);
      if (prepared.kind !== 'ready') return false;
      if ((await activities.checkBlockRules(input)).blocked) return false;
      const { context } = prepared;
      const plan = planRoute({
        flow: context.flow,
        processors: context.processors,
        currency: input.currency,
        stickyProcessorId: context.stickyProcessorId,
        random: Math.random(),
      });
      const processorId = plan.order[0];
      if (!processorId) return false;
      // authorizeAttempt reads its activity context (earlier tries' verdicts), as it would under a worker.
      const attempt: Awaited<ReturnType<typeof activities.authorizeAttempt>> = await new MockActivityEnvironment().run(
        activities.authorizeAttempt,
        { ...input, attemptNumber: 1, processorId, capture: true },
      );
      if (attempt.outcome !== 'approved') return false;
      const final = await activities.finalizePayment({
        paymentId: input.paymentId,
        status: 'succeeded',
        processorId,
        processorReference: attempt.processorReference,
        captured: attempt.captured,
        declineCode: null,
        declineCategory: null,
        declineMessage: null,
      });
      await activities.dispatchEvents(final.eventIds);
      return true;
    };
    const baseline = summary(
      `payment steps only: no HTTP, no Temporal (${clients} clients)`,
      await drive(inProcess, clients, steps),
    );

    const row = (s: ReturnType<typeof summary>) =>
      `${s.label.padEnd(58)} n=${s.count} ok=${s.succeeded}  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  ${s.perSecond.toFixed(1)} payments/s`;
    process.stdout.write(
      [
        '',
        separateWorker
          ? 'Worker in its own process (`npm run worker`); API, sandbox acquirer and these load clients share this one;'
          : 'API, worker, sandbox acquirer and these load clients share one Node process, as under `npm start`;',
        'Postgres and the Temporal dev server are their own processes on the same 2 cores.',
        row(engine),
        row(baseline),
        `ratio (engine / steps only): p50 ×${(engine.p50 / baseline.p50).toFixed(2)}  p99 ×${(engine.p99 / baseline.p99).toFixed(2)}  throughput ×${(engine.perSecond / baseline.perSecond).toFixed(2)}`,
        `latencies and payments/s count succeeded payments only; failed answers: engine ${engine.count - engine.succeeded}, steps only ${baseline.count - baseline.succeeded}`,
        ...verdict(engine, clients),
        '',
      ].join('\n'),
    );
    if (lastPaymentId)
      process.stdout.write(
        `history of ${lastPaymentId} (ms after start):\n${await historyTimeline(client, lastPaymentId)}\n`,
      );
  } finally {
    await lifecycle.stopAll();
  }
}

/** The targets, judged on the engine row. */
function verdict(engine: ReturnType<typeof summary>, clients: number): string[] {
  const check = (label: string, ok: boolean) => `  ${ok ? 'met   ' : 'MISSED'} ${label}`;
  return [
    `targets (${clients} clients):`,
    check(`p50 <= 40 ms (measured ${engine.p50.toFixed(1)} ms)`, engine.p50 <= 40),
    check(`p99 <= 200 ms (measured ${engine.p99.toFixed(1)} ms)`, engine.p99 <= 200),
    check(`>= 100 payments/s (measured ${engine.perSecond.toFixed(1)})`, engine.perSecond >= 100),
  ];
}

/** Where a payment's time goes: each history event's offset from the workflow's start. */
async function historyTimeline(
  client: Awaited<ReturnType<typeof createTemporalClient>>,
  workflowId: string,
): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const ms = (e: (typeof events)[number]) =>
    Number(e.eventTime?.seconds ?? 0) * 1000 + Math.round((e.eventTime?.nanos ?? 0) / 1e6);
  const start = events[0] ? ms(events[0]) : 0;
  return events.map((e) => `  +${String(ms(e) - start).padStart(5)}  ${String(e.eventType)}`).join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
