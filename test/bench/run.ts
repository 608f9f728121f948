import os from 'node:os';
import path from 'node:path';
import { memoryLimitDefaults, parseConfig } from '../../src/config';
import { provideDatabase } from '../../src/db/database';
import { createPrismaClient } from '../../src/db/prisma';
import { createLogger } from '../../src/logging/logger';
import { startApi } from '../../src/runtime/api';
import { Lifecycle } from '../../src/runtime/shutdown';
import { provideTemporal } from '../../src/runtime/temporal';
import { installTemporalRuntime } from '../../src/runtime/temporalRuntime';
import { startWorker } from '../../src/runtime/worker';
import { createTemporalClient } from '../../temporal/connection';
import { floorRun, startFloorWorker, type FloorWorkflow } from './floor';
import {
  cpuMs,
  historyShape,
  historyTimeline,
  installStatementCounter,
  mainThreadProfiler,
  threadCpuMs,
  threadCpuPerRun,
  type RecordedStatement,
} from './measures';
import { report, type Measured } from './report';
import type { PayResult } from './outsideWorld';
import { startOutsideWorld } from './outsideWorldProcess';
import { createBenchTenant, drive, summary } from './setup';
import { paymentStepsOnly } from './steps';
import { startWorkerProcess } from './workerProcess';

/**
 * `npm run bench`: starts its own engine (embedded Postgres + Temporal dev server under
 * $TMPDIR/payment-engine-bench, on ports of its own, unless DATABASE_URL / TEMPORAL_ADDRESS are set).
 * On the same dev server and worker settings it runs the Temporal floor (an empty update-with-start
 * workflow, a payment-shaped one with no work, and the same with all four steps local activities),
 * then frictionless pay-v2 charges, at 1 client and
 * at BENCH_CLIENTS (default 16); then the same payment steps in-process without HTTP or Temporal.
 * It prints the rows, the ratios to the floor, SQL statements and CPU per payment, workflow tasks
 * and history events per payment, and the speed targets of docs/speed.md (met / MISSED).
 */
const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const payments = Number(process.env.BENCH_PAYMENTS ?? 400);
const warmup = Number(process.env.BENCH_WARMUP ?? 32);
/** Runs of the 1-client rows. */
const single = Number(process.env.BENCH_SINGLE_PAYMENTS ?? Math.min(100, payments));
/** BENCH_WORKER=process: the worker runs as `npm run worker` in its own process (API and load clients stay here). */
const separateWorker = process.env.BENCH_WORKER === 'process';
/** BENCH_LIST_STATEMENTS=1: print the SQL statements of one uncontended payment. */
const listStatements = process.env.BENCH_LIST_STATEMENTS === '1';
/** BENCH_PROFILE=<file>: the main thread's CPU profile over the many-client pay-v2 run (and beside it, `<file>.floor`, over the all-local floor's). */
const profiler = mainThreadProfiler(process.env.BENCH_PROFILE);

async function main(): Promise<void> {
  const statements = installStatementCounter();
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
    // Load clients and the sandbox run in a process of their own: this one's CPU is the engine's.
    const outside = await startOutsideWorld();
    lifecycle.add('outside world', outside.stop);
    const deps = { db, logger, config: cfg, sandboxUrl: outside.sandboxUrl, temporal: client };
    const childPids: number[] = [];
    if (separateWorker) {
      const worker = await startWorkerProcess({
        databaseUrl: database.url,
        temporalAddress: temporal.settings.address,
        taskQueue: cfg.TEMPORAL_TASK_QUEUE,
        sandboxUrl: outside.sandboxUrl,
        dataDir: cfg.DATA_DIR,
      });
      childPids.push(worker.pid);
      lifecycle.add('worker process', worker.stop);
    } else {
      const worker = await startWorker(temporal.settings, cfg.TEMPORAL_TASK_QUEUE, deps);
      lifecycle.add('worker', worker.stop);
    }
    const floorQueue = `${cfg.TEMPORAL_TASK_QUEUE}-floor`;
    const floorWorker = await startFloorWorker(
      temporal.settings,
      floorQueue,
      cfg.TEMPORAL_MAX_CACHED_WORKFLOWS ?? memoryLimitDefaults.TEMPORAL_MAX_CACHED_WORKFLOWS,
    );
    lifecycle.add('floor worker', floorWorker.stop);
    const api = await startApi({ ...deps, taskQueue: cfg.TEMPORAL_TASK_QUEUE }, 0, '127.0.0.1');
    lifecycle.add('api', api.stop);

    // One merchant account per client: the per-account quota (premium: 500/min, burst 750)
    // stays in force, and 16 accounts paying at once is the load the engine is sized for.
    const tenants = await Promise.all(Array.from({ length: clients }, () => createBenchTenant(db, api.url)));
    type Tenant = (typeof tenants)[number];
    const needed = warmup + single + 2 * payments + (listStatements ? 1 : 0);
    const perTenant = Math.ceil(needed / clients);
    process.stdout.write(`engine up; preparing ${perTenant * clients} checkout sessions in ${clients} accounts…\n`);
    const made = await Promise.all(tenants.map((tenant) => tenant.checkouts(perTenant)));
    type Job = { tenant: Tenant; session: { id: string; total: number; currency: string } };
    const sessions: Job[] = [];
    for (let i = 0; i < perTenant; i++)
      made.forEach((list, t) => sessions.push({ tenant: tenants[t]!, session: list[i]! }));
    let taken = 0;
    const take = (n: number) => sessions.slice(taken, (taken += n));

    let lastPaymentId: string | undefined;
    const pay = async (jobs: Job[], concurrency: number): Promise<PayResult> => {
      const result = await outside.pay({
        apiUrl: api.url,
        concurrency,
        jobs: jobs.map(({ tenant, session }) => ({
          token: tenant.merchant.token,
          checkoutSessionId: session.id,
          paymentInstrumentId: tenant.instrumentId,
        })),
      });
      lastPaymentId = result.lastPaymentId ?? lastPaymentId;
      return result;
    };
    const floorIds: Partial<Record<FloorWorkflow, string>> = {};
    const floor = async (type: FloorWorkflow, runs: number, concurrency: number, label: string) => {
      const run = floorRun(client, floorQueue, type);
      const result = await drive(Array.from({ length: runs }), concurrency, async () => {
        const { ok, workflowId } = await run();
        floorIds[type] = workflowId;
        return ok;
      });
      return summary(label, result);
    };

    await pay(take(warmup), clients);
    await floor('emptyFloorWorkflow', warmup, clients, 'warm-up');
    await floor('paymentShapedFloorWorkflow', warmup, clients, 'warm-up');
    await floor('allLocalFloorWorkflow', warmup, clients, 'warm-up');

    const one: Measured['one'] = {
      empty: await floor('emptyFloorWorkflow', single, 1, 'floor: empty update-with-start workflow (1 client)'),
      shaped: await floor('paymentShapedFloorWorkflow', single, 1, 'floor: payment-shaped, no work (1 client)'),
      allLocal: await floor('allLocalFloorWorkflow', single, 1, 'floor: the same, all local activities (1 client)'),
      engine: summary('pay-v2 over HTTP + Temporal (1 client)', await pay(take(single), 1)),
    };
    let statementList: RecordedStatement[] = [];
    let listedPaymentId: string | undefined;
    if (listStatements) {
      statements.record();
      await pay(take(1), 1);
      statementList = statements.stopRecording();
      listedPaymentId = lastPaymentId;
    }

    const label = (what: string) => `${what} (${clients} clients)`;
    // CPU of this process per floor run: the Temporal client, bridge and workflow-thread cost with no engine work.
    const floorCpu = { empty: 0, shaped: 0, allLocal: 0 };
    const threadCpu = { allLocal: '', engine: '', steps: '' };
    const withCpu = async <T extends { succeeded: number }>(into: keyof typeof floorCpu, measure: () => Promise<T>) => {
      const before = cpuMs(childPids);
      const threadsBefore = threadCpuMs();
      const result = await measure();
      floorCpu[into] = (cpuMs(childPids) - before) / Math.max(1, result.succeeded);
      if (into === 'allLocal') threadCpu.allLocal = threadCpuPerRun(threadsBefore, threadCpuMs(), result.succeeded);
      return result;
    };
    const many: Measured['many'] = {
      empty: await withCpu('empty', () =>
        floor('emptyFloorWorkflow', payments, clients, label('floor: empty update-with-start workflow')),
      ),
      shaped: await withCpu('shaped', () =>
        floor('paymentShapedFloorWorkflow', payments, clients, label('floor: payment-shaped, no work')),
      ),
      allLocal: await withCpu('allLocal', async () => {
        await profiler.start();
        const result = await floor(
          'allLocalFloorWorkflow',
          payments,
          clients,
          label('floor: the same, all local activities'),
        );
        await profiler.stop('.floor');
        return result;
      }),
      engine: undefined!,
      steps: undefined!,
    };
    const statementsBefore = statements.count();
    await profiler.start();
    const cpuBefore = cpuMs(childPids);
    const threadsBefore = threadCpuMs();
    const paid = await pay(take(payments), clients);
    threadCpu.engine = threadCpuPerRun(threadsBefore, threadCpuMs(), paid.latencies.length);
    many.engine = summary(label('pay-v2 over HTTP + Temporal'), paid);
    const cpuPerPayment = (cpuMs(childPids) - cpuBefore) / Math.max(1, many.engine.succeeded);
    const outsideCpuPerPayment = paid.cpuMs / Math.max(1, many.engine.succeeded);
    await profiler.stop();
    // The worker's statements are sent from its own process when it runs apart: not counted here.
    const statementsPerPayment = separateWorker
      ? null
      : (statements.count() - statementsBefore) / Math.max(1, many.engine.succeeded);
    const stepsCpuBefore = cpuMs(childPids);
    const stepsThreadsBefore = threadCpuMs();
    many.steps = summary(
      label('payment steps only: no HTTP, no Temporal'),
      await drive(take(payments), clients, paymentStepsOnly(deps)),
    );
    const stepsCpuPerPayment = (cpuMs(childPids) - stepsCpuBefore) / Math.max(1, many.steps.succeeded);
    threadCpu.steps = threadCpuPerRun(stepsThreadsBefore, threadCpuMs(), many.steps.succeeded);

    const shapes = {
      engine: lastPaymentId ? await historyShape(client, lastPaymentId) : undefined,
      empty: floorIds.emptyFloorWorkflow ? await historyShape(client, floorIds.emptyFloorWorkflow) : undefined,
      shaped: floorIds.paymentShapedFloorWorkflow
        ? await historyShape(client, floorIds.paymentShapedFloorWorkflow)
        : undefined,
      allLocal: floorIds.allLocalFloorWorkflow ? await historyShape(client, floorIds.allLocalFloorWorkflow) : undefined,
    };
    process.stdout.write(
      report({
        clients,
        separateWorker,
        one,
        many,
        statementsPerPayment,
        cpuPerPayment,
        outsideCpuPerPayment,
        stepsCpuPerPayment,
        floorCpu,
        threadCpu,
        shapes,
        statementList,
      }),
    );
    if (listedPaymentId)
      process.stdout.write(
        `history of the listed uncontended payment ${listedPaymentId} (ms after start):\n${await historyTimeline(client, listedPaymentId)}\n`,
      );
    if (lastPaymentId)
      process.stdout.write(
        `history of ${lastPaymentId} (ms after start):\n${await historyTimeline(client, lastPaymentId)}\n`,
      );
  } finally {
    await lifecycle.stopAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
