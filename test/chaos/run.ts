import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/logging/logger';
import { Lifecycle } from '../../src/runtime/shutdown';
import { freePort } from '../../temporal/devServer';
import { noTroubles, payUntilTerminal } from './client';
import { startClusterBackends } from './backends';
import { Cluster } from './cluster';
import { createChaosTenant, type ChaosCard } from './tenant';
import { verify, type ChaosPayment } from './verify';

/**
 * `npm run chaos`: API, worker and sandbox as processes of their own (embedded Postgres and the
 * Temporal dev server in a data folder of its own, unless DATABASE_URL and TEMPORAL_ADDRESS are
 * set), CHAOS_CLIENTS clients paying CHAOS_PAYMENTS checkouts with Idempotency-Keys while the
 * worker, the API and the sandbox acquirer are killed with `kill -9` and restarted; then the
 * acquirer's ledger and the database are compared. One summary line; exit 1 if money went wrong.
 */
const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0`);
  return value;
};
const settings = {
  payments: env('CHAOS_PAYMENTS', 500),
  clients: Math.max(1, env('CHAOS_CLIENTS', 8)),
  workerKills: env('CHAOS_WORKER_KILLS', 4),
  apiKills: env('CHAOS_API_KILLS', 1),
  sandboxKills: env('CHAOS_SANDBOX_KILLS', 1),
  /** Share of payments with the holding card (held CHAOS_HOLD_MS at the acquirer, then approved). */
  holdShare: env('CHAOS_HOLD_SHARE', 0.1),
  holdMs: env('CHAOS_HOLD_MS', 1500),
  declineShare: env('CHAOS_DECLINE_SHARE', 0.05),
  /** How long a killed role stays down before it is started again. */
  downMs: env('CHAOS_DOWN_MS', 1000),
  /** A client gives a payment up after this long without a final answer (it then counts as stuck). */
  giveUpMs: env('CHAOS_GIVE_UP_MS', 300_000),
  dataDir: process.env.CHAOS_DATA_DIR ?? path.join(os.tmpdir(), 'payment-engine-chaos'),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh data folder each run; one that is not ours (no marker) is never wiped. */
function freshDataDir(dir: string): void {
  const marker = path.join(dir, '.chaos-data');
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0 && !fs.existsSync(marker))
    throw new Error(`${dir} is not empty and not a chaos data folder; set CHAOS_DATA_DIR`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(marker, '');
}

/** Worker kills spread evenly, the API's after the first third, the sandbox's after the second. */
function killPlan(): ('worker' | 'api' | 'sandbox')[] {
  const plan: ('worker' | 'api' | 'sandbox')[] = Array.from({ length: settings.workerKills }, () => 'worker');
  for (let i = 0; i < settings.apiKills; i++) plan.splice(Math.ceil(((i + 1) * plan.length) / 3), 0, 'api');
  for (let i = 0; i < settings.sandboxKills; i++) plan.splice(Math.ceil(((i + 2) * plan.length) / 3), 0, 'sandbox');
  return plan;
}

function cardFor(index: number): ChaosCard {
  const spread = ((index * 7919) % 1000) / 1000;
  if (spread < settings.holdShare) return 'hold';
  return spread < settings.holdShare + settings.declineShare ? 'decline' : 'approve';
}

async function main(): Promise<number> {
  const started = performance.now();
  const note = (line: string) =>
    process.stderr.write(`chaos [${((performance.now() - started) / 1000).toFixed(1)} s]: ${line}\n`);
  freshDataDir(settings.dataDir);
  const logger = createLogger('warn');
  const lifecycle = new Lifecycle(logger);
  const external =
    process.env.DATABASE_URL && process.env.TEMPORAL_ADDRESS
      ? { DATABASE_URL: process.env.DATABASE_URL, TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS }
      : {};
  let cluster: Cluster | undefined;
  try {
    const { databaseUrl, db, temporal } = await startClusterBackends(settings.dataDir, logger, lifecycle, external);

    cluster = new Cluster({
      databaseUrl,
      temporalAddress: temporal.settings.address,
      taskQueue: `chaos-${Date.now()}`,
      apiPort: await freePort(),
      sandboxPort: await freePort(),
      dataDir: path.join(settings.dataDir, 'engine'),
      logDir: path.join(settings.dataDir, 'logs'),
    });
    lifecycle.add('cluster', () => cluster!.stop());
    note('postgres and temporal up');
    await Promise.all([cluster.start('sandbox'), cluster.start('worker'), cluster.start('api')]);
    note('api, worker and sandbox up');

    const tenants = await Promise.all(
      Array.from({ length: settings.clients }, () => createChaosTenant(db, cluster!.apiUrl, settings.holdMs)),
    );
    const payments: (ChaosPayment & { index: number; checkoutSessionId: string })[] = [];
    await Promise.all(
      tenants.map(async (tenant, t) => {
        for (let index = t; index < settings.payments; index += settings.clients) {
          const session = await tenant.checkout();
          payments.push({ index, tenant, card: cardFor(index), amount: session.total, checkoutSessionId: session.id });
        }
      }),
    );
    payments.sort((a, b) => a.index - b.index);
    note(
      `engine up (logs in ${path.join(settings.dataDir, 'logs')}); ${payments.length} payments from ${settings.clients} clients`,
    );

    const runId = Date.now().toString(36);
    let begun = 0;
    let finished = 0;
    const clients = tenants.map(async (tenant, t) => {
      for (const payment of payments.filter((p) => p.index % settings.clients === t)) {
        begun++;
        const job = {
          key: `chaos-${runId}-${payment.index}`,
          checkoutSessionId: payment.checkoutSessionId,
          paymentInstrumentId: tenant.instruments[payment.card],
        };
        payment.run = await payUntilTerminal(cluster!.apiUrl, tenant.merchant.token, job, settings.giveUpMs);
        finished++;
      }
    });

    const holdInstruments = tenants.map((tenant) => tenant.instruments.hold);
    /**
     * A payment with the holding card whose processor call is in flight: claimed (the row written
     * before the call goes out) and not yet answered (no attempt row). The workflow cannot be asked:
     * the call runs inside its workflow task, and a query waits for that task to end.
     */
    const heldAtAcquirer = async (): Promise<string | undefined> => {
      const rows = await db.$queryRaw<{ id: string }[]>`
        SELECT c.payment_id AS id
          FROM authorization_claims c
          JOIN payments p ON p.id = c.payment_id
         WHERE p.status = 'processing' AND p.payment_instrument_id = ANY(${holdInstruments})
           AND NOT EXISTS (SELECT 1 FROM payment_attempts a
                            WHERE a.payment_id = c.payment_id AND a.attempt_number = c.attempt_number)
         LIMIT 1`;
      return rows[0]?.id;
    };
    const kills = { worker: 0, workerDuringCall: 0, api: 0, sandbox: 0 };
    const plan = killPlan();
    const monkey = (async () => {
      for (const [i, role] of plan.entries()) {
        while (begun < ((i + 1) / (plan.length + 1)) * payments.length && finished < payments.length) await sleep(100);
        if (role === 'worker') {
          // Aim the kill at a processor call in flight: wait (a while) for a held payment at the acquirer.
          let held: string | undefined;
          for (const deadline = Date.now() + 20_000; !held && Date.now() < deadline; await sleep(100))
            held = await heldAtAcquirer();
          if (held) {
            await sleep(Math.min(300, settings.holdMs / 4));
            kills.workerDuringCall++;
          }
        }
        kills[role]++;
        note(`kill -9 ${role} (${finished}/${payments.length} payments answered)`);
        await cluster!.crashAndRestart(role, settings.downMs);
        note(`${role} restarted`);
      }
    })();
    await Promise.all([...clients, monkey]);
    note('every client has its final answer');

    // Every workflow should be final by now; give stragglers (a retried activity) time to finish.
    const accountIds = tenants.map((tenant) => tenant.merchant.accountId);
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(1000)) {
      if (
        (await db.payment.count({
          where: { accountId: { in: accountIds }, status: { in: ['processing', 'requires_action'] } },
        })) === 0
      )
        break;
    }
    const verdict = await verify(db, cluster.sandboxUrl, tenants, payments);
    const times = payments.flatMap((p) => (p.run?.status ? [p.run.elapsedMs] : [])).sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
    const troubles = payments.reduce((sum, p) => {
      for (const [name, count] of Object.entries(p.run?.troubles ?? {})) sum[name as keyof typeof sum] += count;
      return sum;
    }, noTroubles());
    for (const [label, list] of [
      ['double charges', verdict.doubleCharges],
      ['lost', verdict.lost],
      ['stuck', verdict.stuck],
      ['mismatches', verdict.mismatches],
    ] as const) {
      for (const line of list.slice(0, 10)) note(`${label}: ${line}`);
    }
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const clean =
      verdict.doubleCharges.length +
        verdict.lost.length +
        verdict.stuck.length +
        verdict.mismatches.length +
        verdict.final5xx ===
      0;
    process.stdout.write(
      `chaos ${clean ? 'PASSED' : 'FAILED'}: ${payments.length} payments from ${settings.clients} clients; kill -9: worker ×${kills.worker} (${kills.workerDuringCall} during a processor call), API ×${kills.api}, sandbox ×${kills.sandbox}; ` +
        `${verdict.succeeded} succeeded, ${verdict.failed} failed (${verdict.needsReview} needs review); ` +
        `double charges ${verdict.doubleCharges.length}, lost ${verdict.lost.length}, stuck ${verdict.stuck.length}, mismatches ${verdict.mismatches.length}, final 5xx ${verdict.final5xx}; ` +
        `retried: ${troubles.connectionErrors} connection errors, ${troubles.serverErrors} 5xx, ${troubles.inProgress} 409 in progress, ${troubles.rateLimited} 429, ${troubles.notYetVisible} 404 after 202; ` +
        `time to final answer p50 ${seconds(at(0.5))}, p99 ${seconds(at(0.99))}, max ${seconds(times.at(-1) ?? Number.NaN)}; run ${seconds(performance.now() - started)}\n`,
    );
    return clean ? 0 : 1;
  } finally {
    await lifecycle.stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
