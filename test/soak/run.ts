import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPrismaClient } from '../../src/db/prisma';
import type { MemoryProbeAnswer, MemoryProbeRequest } from '../../src/runtime/memoryProbe';
import { freeEnginePorts, spawnEngine, waitFor, type EngineProcess } from '../helpers/engineProcess';
import { p99, table, verdict, verdictLine, type Sample } from './report';
import { createSoakTenant, type SoakTenant } from './tenant';

/**
 * `npm run soak -- --payments N`: starts the engine as `npm start` does (its own ports and data
 * folder under $TMPDIR, wiped first), drives a steady mix from a few concurrent clients and
 * samples the engine process (RSS from /proc, V8 heap over its IPC channel) every --sample-every
 * payments. Mix of every ten: five frictionless-3DS payments, one new monthly subscription (charged
 * at once, its workflow then stays open), two cascades (processor A in an acquirer outage, B
 * approves), one 3DS challenge completed at the sandbox ACS, one payment refunded;
 * payment/succeeded and payment/refunded webhooks go to a local receiver.
 */
const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '20000' },
    clients: { type: 'string', default: '4' },
    warmup: { type: 'string' },
    'sample-every': { type: 'string' },
    'heap-snapshots': { type: 'boolean', default: false },
  },
});
const total = Number(args.payments);
const clients = Number(args.clients);
const warmup = Number(args.warmup ?? Math.min(2000, Math.floor(total / 3)));
const sampleEvery = Number(args['sample-every'] ?? Math.max(50, Math.round(total / 20)));
const dataDir = process.env.SOAK_DATA_DIR ?? path.join(os.tmpdir(), 'payment-engine-soak');

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

async function main(): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  let webhooks = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooks++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
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
    // Several accounts per client: each account's quota (premium: 500 requests a minute) holds.
    const tenants: SoakTenant[] = [];
    for (let i = 0; i < clients * 3; i++) tenants.push(await createSoakTenant(db, apiUrl, sandboxUrl, receiverUrl));
    process.stdout.write(
      `soak: ${total} payments, ${clients} clients, ${tenants.length} accounts, warm-up ${warmup}, sample every ${sampleEvery}; engine pid ${engine.pid}, data ${dataDir}\n`,
    );

    const samples: Sample[] = [];
    let latencies: number[] = [];
    let done = 0;
    let lost = 0;
    let next = 0;
    let sampling = Promise.resolve();
    const sample = async (payments: number, afterHeapSnapshot = false) => {
      const memory = await probe(engine, { kind: 'memory' });
      if (memory.kind !== 'memory') return;
      samples.push({
        payments,
        rssMb: rssMbOf(engine.pid),
        heapUsedMb: memory.heapUsed / 1048576,
        heapTotalMb: memory.heapTotal / 1048576,
        p99Ms: afterHeapSnapshot ? (samples.at(-1)?.p99Ms ?? Number.NaN) : p99(latencies),
        afterHeapSnapshot,
      });
      latencies = [];
      const last = samples.at(-1)!;
      process.stdout.write(
        `  ${payments} payments: RSS ${last.rssMb.toFixed(1)} MB, p99 ${last.p99Ms.toFixed(0)} ms\n`,
      );
      if (args['heap-snapshots'] && (payments === warmup || payments === total)) {
        const snapshot = await probe(engine, {
          kind: 'heap-snapshot',
          file: path.join(dataDir, `heap-${payments}.heapsnapshot`),
        });
        if (snapshot.kind === 'heap-snapshot') process.stdout.write(`  heap snapshot: ${snapshot.file}\n`);
        // V8 allocates the snapshot outside its heap and the allocator keeps most of it: without this the
        // warm-up snapshot alone reads as ~280 MB of growth.
        if (payments === warmup) await sample(payments, true);
      }
    };
    await sample(0);
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
            sampling = sampling.then(() => sample(at));
          }
        }
      }),
    );
    await sampling;
    const result = verdict(samples, warmup, lost);
    process.stdout.write(
      [
        '',
        `engine: one Node process (API + worker + sandbox, as npm start); Postgres and Temporal dev server not counted`,
        `webhook deliveries received: ${webhooks}; payments not in their expected state: ${lost}`,
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

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
