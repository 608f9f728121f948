import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/config';
import { freeEnginePorts, spawnEngine, waitFor, healthStatus, type EngineProcess } from '../helpers/engineProcess';
import { createCrmKey, createPartnerKey, createProcessingKey, getDocument } from './keys';
import { figuresOf, summaryLine } from './report';

/**
 * `npm run fuzz`: schemathesis (PyPI, installed into the git-ignored .venv-fuzz/) against
 * /openapi.json of an engine of its own (`npm start` on free ports, data under FUZZ_DATA_DIR,
 * wiped first), with keys made through the admin CLI and the partner API. Checks: no 5xx, every
 * status, content type and body as the document declares. Paths run in parallel schemathesis
 * runs with the key kind they are for (see `planShards`), each key on an account or partner of
 * its own, so its rate limit paces that run and not the whole. Prints one summary line; exits 1 on
 * any failure. Not part of `npm test`.
 */
const schemathesisVersion = '4.32.5';
const venv = path.join(projectRoot, '.venv-fuzz');
const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? '8';
const seed = process.env.FUZZ_SEED ?? '1';
const dataDir = process.env.FUZZ_DATA_DIR ?? path.join(os.tmpdir(), 'payment-engine-fuzz');
// Premium accounts may make 500 requests a minute; going slower keeps the fuzzer off 429s.
const rateLimit = process.env.FUZZ_RATE_LIMIT ?? '480/m';
/** Parallel CRM-key runs, each over a share of the public paths with a merchant account of its own. */
const shards = Number(process.env.FUZZ_SHARDS ?? 4);
// Partner keys share their partner's Standard quota (100 a minute).
const partnerRateLimit = process.env.FUZZ_PARTNER_RATE_LIMIT ?? '95/m';
const checks = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
];

function ensureSchemathesis(): string {
  const binary = path.join(venv, 'bin', 'schemathesis');
  if (fs.existsSync(binary)) return binary;
  process.stdout.write(`installing schemathesis ${schemathesisVersion} into ${venv}…\n`);
  execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', `schemathesis==${schemathesisVersion}`], {
    stdio: 'inherit',
  });
  return binary;
}

/** What the engine logged as answers off the document (CHECK_RESPONSES), one line each. */
function contractViolationsIn(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('answer does not match the OpenAPI document'))
    .map(
      (line) => (JSON.parse(line) as { violation: { operation: string; status: number; problem: string } }).violation,
    )
    .map((violation) => `${violation.operation} → ${violation.status}: ${violation.problem}`);
}

interface Shard {
  index: number;
  /** Which key kind runs it: crm, partner or processing. */
  kind: string;
  token: string;
  rate: string;
  pathRegex: string;
}

const exactly = (paths: string[]) => `^(${paths.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
const split = <T>(items: T[], count: number) =>
  Array.from({ length: count }, (_, group) => items.filter((_item, i) => i % count === group)).filter(
    (group) => group.length > 0,
  );

/**
 * The document's paths, each fuzzed with the key kind it is for: partner paths with partner keys
 * (two partners, each limited to 100 requests a minute), processing paths with a processing key,
 * the rest (public API and portal) split over `shards` CRM keys of their own accounts.
 */
async function planShards(api: string, env: Record<string, string>): Promise<Shard[]> {
  const paths = Object.keys((await getDocument(api)).paths).sort();
  const isPartner = (p: string) => /^\/api\/(public|processing)\/v1\/partner\//.test(p);
  const isProcessing = (p: string) => !isPartner(p) && p.startsWith('/api/processing/v1/');
  const provisioner = createPartnerKey(env, 'Fuzz partner');
  const plans: Omit<Shard, 'index'>[] = [];
  for (const [i, group] of split(paths.filter(isPartner), 2).entries()) {
    plans.push({
      kind: 'partner',
      token: createPartnerKey(env, `Fuzz partner ${i}`),
      rate: partnerRateLimit,
      pathRegex: exactly(group),
    });
  }
  plans.push({
    kind: 'processing',
    token: await createProcessingKey(api, provisioner),
    rate: rateLimit,
    pathRegex: exactly(paths.filter(isProcessing)),
  });
  for (const [i, group] of split(
    paths.filter((p) => !isPartner(p) && !isProcessing(p)),
    shards,
  ).entries()) {
    plans.push({
      kind: 'crm',
      token: (await createCrmKey(api, provisioner, `fuzz ${i}`)).token,
      rate: rateLimit,
      pathRegex: exactly(group),
    });
  }
  return plans.map((plan, index) => ({ ...plan, index }));
}

function runSchemathesis(
  binary: string,
  api: string,
  shard: Shard,
): Promise<{ exit: number; report: string; log: string }> {
  const report = path.join(dataDir, `schemathesis-${shard.index}.ndjson`);
  const log = path.join(dataDir, `schemathesis-${shard.index}.log`);
  const args = [
    'run',
    `${api}/openapi.json`,
    '--header',
    `Authorization: Bearer ${shard.token}`,
    '--include-path-regex',
    shard.pathRegex,
    '--checks',
    checks.join(','),
    '--max-examples',
    maxExamples,
    '--seed',
    seed,
    '--rate-limit',
    shard.rate,
    '--request-timeout',
    '30',
    '--report',
    'ndjson',
    '--report-ndjson-path',
    report,
    '--no-color',
    // e.g. FUZZ_ARGS='--phases fuzzing' to run a part of schemathesis' phases.
    ...(process.env.FUZZ_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const shown = args.map((arg) =>
    arg.startsWith('Authorization')
      ? `'Authorization: Bearer <${shard.kind} key>'`
      : arg === shard.pathRegex
        ? `'${arg}'`
        : arg,
  );
  fs.writeFileSync(path.join(dataDir, `schemathesis-${shard.index}.command`), `${binary} ${shown.join(' ')}\n`);
  const out = fs.openSync(log, 'w');
  const child = spawn(binary, args, {
    stdio: ['ignore', out, out],
    env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false' },
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ exit: code ?? 1, report, log })));
}

async function main(): Promise<void> {
  const binary = ensureSchemathesis();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const ports = await freeEnginePorts();
  // The engine also checks its own answers against the document (CHECK_RESPONSES) and logs misses.
  const env = { ...ports, DATA_DIR: dataDir, LOG_LEVEL: 'warn', CHECK_RESPONSES: 'true', TEMPORAL_TASK_QUEUE: 'fuzz' };
  const engine: EngineProcess = spawnEngine(env);
  const api = `http://127.0.0.1:${ports.PORT}`;
  let exitCode = 1;
  const started = Date.now();
  try {
    await waitFor('the engine to answer health', async () => (await healthStatus(ports.PORT)) === 200, engine, 180_000);
    const plan = await planShards(api, env);
    process.stdout.write(
      `${plan.length} schemathesis runs (${plan.map((shard) => shard.kind).join(', ')}); each one's command: ${dataDir}/schemathesis-N.command\n`,
    );
    const runs = await Promise.all(plan.map((shard) => runSchemathesis(binary, api, shard)));
    const figures = figuresOf(runs.map((run) => fs.readFileSync(run.report, 'utf8')));
    const engineViolations = contractViolationsIn(engine.output());
    for (const violation of new Set(engineViolations)) process.stdout.write(`  engine: ${violation}\n`);
    for (const failure of figures.uniqueFailures)
      process.stdout.write(`  ${failure.operation}: ${failure.title} (${failure.message})\n`);
    process.stdout.write(`schemathesis logs: ${runs.map((run) => run.log).join(', ')}\n`);
    process.stdout.write(`\n${summaryLine(figures, engineViolations.length, (Date.now() - started) / 1000)}\n`);
    const clean = figures.uniqueFailures.length === 0 && engineViolations.length === 0;
    exitCode = clean && runs.every((run) => run.exit === 0) ? 0 : 1;
  } finally {
    process.kill(-engine.pid, 'SIGINT');
    await Promise.race([engine.exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  }
  process.exit(exitCode);
}

void main().catch((error: unknown) => {
  process.stderr.write(`fuzz failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
