import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPrismaClient } from '../../src/db/prisma';
import type { MemoryProbeAnswer, MemoryProbeRequest } from '../../src/runtime/memoryProbe';
import { createLogger } from '../../src/logging/logger';
import { Lifecycle } from '../../src/runtime/shutdown';
import { freePort } from '../../temporal/devServer';
import { startClusterBackends } from '../chaos/backends';
import { Cluster } from '../chaos/cluster';
import { freeEnginePorts, spawnEngine, waitFor, type EngineProcess } from '../helpers/engineProcess';
import {
  engineSample,
  p99,
  splitGrowth,
  splitGrowthTable,
  splitRoles,
  splitTable,
  table,
  verdict,
  verdictLine,
  type ProcessMemory,
  type Sample,
  type SplitRole,
  type SplitSample,
} from './report';
import { createSoakTenant, type SoakTenant } from './tenant';

/**
 * `npm run soak -- --payments N`: starts the engine as `npm start` does (its own ports and data
 * folder under $TMPDIR, wiped first), drives a steady mix from a few concurrent clients and
 * samples the engine process (RSS from /proc, V8 heap over its IPC channel) every --sample-every
 * payments. Mix of every ten: five frictionless-3DS payments, one new monthly subscription (charged
 * at once, its workflow then stays open), two cascades (processor A in an acquirer outage, B
 * approves), one 3DS challenge completed at the sandbox ACS, one payment refunded;
 * payment/succeeded and payment/refunded webhooks go to a local receiver.
 *
 * `--split`: API, worker and sandbox run as processes of their own (`npm run api | worker |
 * sandbox`, as test/chaos/cluster.ts runs them) against an embedded Postgres and Temporal dev
 * server started here; each is sampled (RSS from /proc, main-thread heap over its IPC channel) and
 * the verdict judges API + worker (the engine); the sandbox is reported on its own.
 */
const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '20000' },
    clients: { type: 'string', default: '4' },
    warmup: { type: 'string' },
    'sample-every': { type: 'string' },
    'heap-snapshots': { type: 'boolean', default: false },
    split: { type: 'boolean', default: false },
  },
});
const total = Number(args.payments);
const clients = Number(args.clients);
const warmup = Number(args.warmup ?? Math.min(2000, Math.floor(total / 3)));
const sampleEvery = Number(args['sample-every'] ?? Math.max(50, Math.round(total / 20)));
const dataDir = process.env.SOAK_DATA_DIR ?? path.join(os.tmpdir(), 'payment-engine-soak');

/**
 * The sandbox (the simulated acquirer and 3DS server, in the engine's process under npm start)
 * keeps the newest 20,000 and 5,000 of its records by default. Filling those bounded windows takes
 * most of a default run and would read as the engine's growth, so the soak gives them windows that
 * fill within the warm-up (each payment writes at least one acquirer record, six in ten a 3DS
 * one): the verdict is about the engine. Set the variables to measure the defaults instead.
 */
process.env.SANDBOX_ACQUIRER_MAX_ENTRIES ??= String(Math.max(100, warmup));
process.env.SANDBOX_THREEDS_MAX_TRANSACTIONS ??= String(Math.max(50, Math.floor(warmup / 2)));
const sandboxWindows = `sandbox windows: acquirer ${process.env.SANDBOX_ACQUIRER_MAX_ENTRIES}, 3DS ${process.env.SANDBOX_THREEDS_MAX_TRANSACTIONS}`;

function probe(engine: EngineProcess, request: MemoryProbeRequest): Promise<MemoryProbeAnswer> {
  return new Promise((resolve) => {
    const onMessage = (answer: MemoryProbeAnswer) => {
      if (answer.kind !== request.kind) return;
      engine.child.off('message', onMessage);
      resolve(answer);
    };
    engine.child.on('message', onMessage);
    engine.child.send(request);
  });
}

function rssMbOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? Number.NaN) / 1024;
}

/** The cardholder's browser: opens the ACS page, completes it, follows the redirect to the engine's return endpoint. */
async function completeChallenge(challengeUrl: string): Promise<void> {
  await (await fetch(challengeUrl)).text();
  const submitted = await fetch(challengeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'complete' }).toString(),
    redirect: 'manual',
  });
  await (await fetch(submitted.headers.get('location')!, { redirect: 'manual' })).text();
}

/** One payment of the mix; true when it reached its expected final state. */
async function runOne(tenant: SoakTenant, n: number): Promise<boolean> {
  const kind = n % 10;
  if (kind === 8) {
    const started = await tenant.pay('challenge', 'threeDs', 1000 + kind);
    if (started.body?.payment?.status !== 'requires_action') return false;
    await completeChallenge(started.body.redirectUrl);
    for (let i = 0; i < 100; i++) {
      const read = await tenant.call('GET', `/payments/${started.body.payment.id}`);
      if (read.body?.status === 'succeeded') return true;
      if (read.body?.status === 'failed') return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }
  if (kind === 5) {
    // A subscription: its workflow stays open between renewals, so the worker's cache fills with long-lived runs.
    const created = await tenant.subscribe();
    return created.status === 201 && created.body?.status === 'active';
  }
  const paid = await tenant.pay('frictionless', kind === 6 || kind === 7 ? 'cascade' : 'threeDs', 1000 + kind);
  if (paid.status !== 200 || paid.body?.payment?.status !== 'succeeded') return false;
  if (kind !== 9) return true;
  const refund = await tenant.call('POST', '/payments/refund', { paymentId: paid.body.payment.id });
  return refund.status === 200;
}

/** The local receiver the tenants' webhooks go to; counts deliveries. */
async function startReceiver(): Promise<{ url: string; received: () => number; close: () => void }> {
  let webhooks = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooks++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    received: () => webhooks,
    close: () => receiver.close(),
  };
}

/**
 * Runs `total` payments from `clients` concurrent clients; `sample(payments, takeP99)` runs (one at
 * a time) every --sample-every payments, at the end of warm-up and at the end. Returns how many
 * payments did not reach their expected state.
 */
async function drive(
  tenants: SoakTenant[],
  sample: (payments: number, takeP99: () => number) => Promise<void>,
): Promise<number> {
  let latencies: number[] = [];
  const takeP99 = () => {
    const result = p99(latencies);
    latencies = [];
    return result;
  };
  let done = 0;
  let lost = 0;
  let next = 0;
  let sampling = sample(0, takeP99);
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (next < total) {
        const n = next++;
        const tenant = tenants[((n % tenants.length) + client) % tenants.length]!;
        const t0 = performance.now();
        const ok = await runOne(tenant, n).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) lost++;
        done++;
        if (done % sampleEvery === 0 || done === warmup || done === total) {
          const at = done;
          sampling = sampling.then(() => sample(at, takeP99));
        }
      }
    }),
  );
  await sampling;
  return lost;
}

async function createTenants(
  db: ReturnType<typeof createPrismaClient>,
  apiUrl: string,
  sandboxUrl: string,
  receiverUrl: string,
) {
  // Several accounts per client: each account's quota (premium: 500 requests a minute) holds.
  const tenants: SoakTenant[] = [];
  for (let i = 0; i < clients * 3; i++) tenants.push(await createSoakTenant(db, apiUrl, sandboxUrl, receiverUrl));
  return tenants;
}

async function main(): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const receiver = await startReceiver();
  const ports = await freeEnginePorts();
  const engine = spawnEngine(
    { ...ports, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    { logFile: path.join(dataDir, 'engine.log'), ipc: true },
  );
  const apiUrl = `http://127.0.0.1:${ports.PORT}`;
  const sandboxUrl = `http://127.0.0.1:${ports.SANDBOX_PORT}`;
  const db = createPrismaClient(`postgresql://postgres:postgres@127.0.0.1:${ports.EMBEDDED_POSTGRES_PORT}/payments`);
  try {
    await waitFor(
      'the engine to answer health',
      async () => (await fetch(`${apiUrl}/api/public/v1/health`)).status === 200,
      engine,
      180_000,
    );
    const tenants = await createTenants(db, apiUrl, sandboxUrl, receiver.url);
    process.stdout.write(
      `soak: ${total} payments, ${clients} clients, ${tenants.length} accounts, warm-up ${warmup}, sample every ${sampleEvery}; ${sandboxWindows}; engine pid ${engine.pid}, data ${dataDir}\n`,
    );

    const samples: Sample[] = [];
    const sample = async (payments: number, takeP99: () => number, afterHeapSnapshot = false) => {
      const memory = await probe(engine, { kind: 'memory' });
      if (memory.kind !== 'memory') return;
      const since = takeP99();
      samples.push({
        payments,
        rssMb: rssMbOf(engine.pid),
        heapUsedMb: memory.heapUsed / 1048576,
        heapTotalMb: memory.heapTotal / 1048576,
        p99Ms: afterHeapSnapshot ? (samples.at(-1)?.p99Ms ?? Number.NaN) : since,
        afterHeapSnapshot,
      });
      const last = samples.at(-1)!;
      const spaces = Object.entries(memory.heapSpaces)
        .filter(([, bytes]) => bytes >= 1048576)
        .map(([name, bytes]) => `${name.replace(/_space$/, '')} ${(bytes / 1048576).toFixed(1)}`)
        .join(', ');
      process.stdout.write(
        `  ${payments} payments: RSS ${last.rssMb.toFixed(1)} MB, p99 ${last.p99Ms.toFixed(0)} ms; heap spaces committed MB: ${spaces}\n`,
      );
      if (args['heap-snapshots'] && (payments === warmup || payments === total)) {
        const snapshot = await probe(engine, {
          kind: 'heap-snapshot',
          file: path.join(dataDir, `heap-${payments}.heapsnapshot`),
        });
        if (snapshot.kind === 'heap-snapshot') process.stdout.write(`  heap snapshot: ${snapshot.file}\n`);
        // V8 allocates the snapshot outside its heap and the allocator keeps most of it: without this the
        // warm-up snapshot alone reads as ~280 MB of growth.
        if (payments === warmup) await sample(payments, takeP99, true);
      }
    };
    const lost = await drive(tenants, sample);
    const result = verdict(samples, warmup, lost);
    process.stdout.write(
      [
        '',
        `engine: one Node process (API + worker + sandbox, as npm start); Postgres and Temporal dev server not counted`,
        `webhook deliveries received: ${receiver.received()}; payments not in their expected state: ${lost}`,
        table(samples),
        verdictLine(result),
        '',
      ].join('\n'),
    );
  } finally {
    await db.$disconnect();
    engine.child.kill('SIGTERM');
    const timer = setTimeout(() => engine.child.kill('SIGKILL'), 30_000);
    await engine.exited;
    clearTimeout(timer);
    receiver.close();
  }
}

/** `--split`: API, worker and sandbox as processes of their own; embedded Postgres and Temporal started here. */
async function mainSplit(): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const receiver = await startReceiver();
  const logger = createLogger('warn');
  const lifecycle = new Lifecycle(logger);
  lifecycle.add('webhook receiver', async () => receiver.close());
  try {
    const { cfg, databaseUrl, db, temporal } = await startClusterBackends(dataDir, logger, lifecycle);
    const cluster = new Cluster({
      databaseUrl,
      temporalAddress: temporal.settings.address,
      taskQueue: cfg.TEMPORAL_TASK_QUEUE,
      apiPort: await freePort(),
      sandboxPort: await freePort(),
      dataDir: path.join(dataDir, 'engine'),
      logDir: path.join(dataDir, 'logs'),
      ipc: true,
    });
    lifecycle.add('roles', () => cluster.stop());
    await Promise.all([cluster.start('sandbox'), cluster.start('worker'), cluster.start('api')]);
    const tenants = await createTenants(db, cluster.apiUrl, cluster.sandboxUrl, receiver.url);
    const pids = splitRoles.map((role) => `${role} ${cluster.process(role).pid}`).join(', ');
    process.stdout.write(
      `soak --split: ${total} payments, ${clients} clients, ${tenants.length} accounts, warm-up ${warmup}, sample every ${sampleEvery}; ${sandboxWindows}; pids ${pids}; data ${dataDir}\n`,
    );

    const memoryOf = async (role: SplitRole): Promise<ProcessMemory> => {
      const engine = cluster.process(role);
      const memory = await probe(engine, { kind: 'memory' });
      const heap = memory.kind === 'memory' ? memory : { heapUsed: Number.NaN, heapTotal: Number.NaN };
      return { rssMb: rssMbOf(engine.pid), heapUsedMb: heap.heapUsed / 1048576, heapTotalMb: heap.heapTotal / 1048576 };
    };
    const samples: SplitSample[] = [];
    const lost = await drive(tenants, async (payments, takeP99) => {
      const [api, worker, sandbox] = await Promise.all(splitRoles.map(memoryOf));
      const s: SplitSample = {
        payments,
        p99Ms: takeP99(),
        processes: { api: api!, worker: worker!, sandbox: sandbox! },
      };
      samples.push(s);
      process.stdout.write(
        `  ${payments} payments: RSS api ${api!.rssMb.toFixed(1)}, worker ${worker!.rssMb.toFixed(1)}, sandbox ${sandbox!.rssMb.toFixed(1)} MB; p99 ${s.p99Ms.toFixed(0)} ms\n`,
      );
    });
    process.stdout.write(
      [
        '',
        `engine: API and worker as processes of their own (npm run api, npm run worker); the sandbox (npm run sandbox) is the simulated outside world, reported but not judged; Postgres and Temporal dev server not counted. MB; heap = main thread's V8 heap (the worker's workflow thread is not in it)`,
        `webhook deliveries received: ${receiver.received()}; payments not in their expected state: ${lost}`,
        splitTable(samples),
        '',
        `growth after ${warmup} warm-up payments, MB per 1,000 payments:`,
        splitGrowthTable(splitGrowth(samples, warmup)),
        '',
        'the verdict below judges api + worker RSS summed (the engine); heap = both main threads summed',
        verdictLine(verdict(samples.map(engineSample), warmup, lost)),
        '',
      ].join('\n'),
    );
  } finally {
    await lifecycle.stopAll();
  }
}

(args.split ? mainSplit() : main()).catch((error: unknown) => {
  process.stderr.write(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
