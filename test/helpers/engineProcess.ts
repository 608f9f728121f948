import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { launchCommandOf } from './launchCommand';
import { buildEngine } from '../../src/cli/build';
import fs from 'node:fs';
import { projectRoot } from '../../src/config';
import { freePort } from '../../temporal/devServer';

export interface EnginePorts {
  PORT: string;
  SANDBOX_PORT: string;
  TEMPORAL_DEV_SERVER_PORT: string;
  TEMPORAL_UI_PORT: string;
  EMBEDDED_POSTGRES_PORT: string;
}

export async function freeEnginePorts(): Promise<EnginePorts> {
  return {
    PORT: String(await freePort()),
    SANDBOX_PORT: String(await freePort()),
    TEMPORAL_DEV_SERVER_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
  };
}

export interface EngineProcess {
  child: ChildProcess;
  pid: number;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** pino lines' `msg` fields, in order. */
  messages(): string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `npm start` (its build, then the script line's node command) in its own process group, as a
 * terminal would run it: signalling the group is a Ctrl-C. Embedded defaults only: any external
 * database or Temporal from the test run's environment is removed.
 */
export function spawnEngine(
  env: Record<string, string>,
  options: { logFile?: string; ipc?: boolean } = {},
): EngineProcess {
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'REDIS_URL']) delete inherited[name];
  return spawnCli('start', { ...inherited, LOG_LEVEL: 'info', ...env }, { detached: true, ...options });
}

/** The roles a split deployment runs as processes of their own: `npm run api | worker | sandbox`. */
export type Role = 'api' | 'worker' | 'sandbox';

/**
 * `npm run <role>` as node itself (no npm or shell in between), so `kill -9` of its pid is a crash
 * of exactly that role. `logFile` sends its output there instead of keeping it in memory; `ipc`
 * opens the channel its memory probe answers on (npm run soak -- --split).
 */
export function spawnRole(
  role: Role,
  env: Record<string, string | undefined>,
  options: { logFile?: string; ipc?: boolean } = {},
): EngineProcess {
  return spawnCli(role, { ...process.env, ...env }, options);
}

function spawnCli(
  script: string,
  env: NodeJS.ProcessEnv,
  options: { detached?: boolean; logFile?: string; ipc?: boolean },
): EngineProcess {
  const logFd = options.logFile ? fs.openSync(options.logFile, 'a') : undefined;
  // npm runs the build before each of these scripts (prestart, preapi, …); so do the tests.
  buildEngine();
  const launch = launchCommandOf(script, env);
  const child = spawn(process.execPath, launch.args, {
    cwd: projectRoot,
    env: { ...env, ...launch.env },
    stdio: [
      'ignore',
      logFd ?? 'pipe',
      logFd ?? 'pipe',
      // A channel for memory probes (npm run soak); see src/runtime/memoryProbe.ts.
      ...(options.ipc ? (['ipc'] as const) : []),
    ],
    detached: options.detached ?? false,
  });
  if (logFd !== undefined) fs.closeSync(logFd);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const read = () => (options.logFile ? fs.readFileSync(options.logFile, 'utf8') : output);
  return {
    child,
    pid: child.pid!,
    output: read,
    messages: () =>
      read()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { msg?: string }).msg ?? ''),
    exited,
  };
}

/** `kill -9`: the process gets no chance to drain, close connections or write anything more. */
export async function crash(engine: EngineProcess): Promise<void> {
  if (engine.child.exitCode !== null || engine.child.signalCode !== null) return;
  engine.child.kill('SIGKILL');
  await engine.exited;
}

/** Polls until `check` is true; fails with `what` and the engine's output after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  engine: EngineProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (engine.child.exitCode !== null) throw new Error(`engine exited while waiting for ${what}:\n${engine.output()}`);
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}:\n${engine.output()}`);
}

export async function healthStatus(port: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/api/public/v1/health`)).status;
}

export interface ChildInfo {
  pid: number;
  pgid: number;
  command: string;
}

/** Direct children of `pid` (Linux `ps`). */
export function childrenOf(pid: number): ChildInfo[] {
  let listing = '';
  try {
    listing = execFileSync('ps', ['-o', 'pid=,pgid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return listing
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [childPid, pgid, ...command] = line.trim().split(/\s+/);
      return { pid: Number(childPid), pgid: Number(pgid), command: command.join(' ') };
    });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm run worker` as its own process on its own task queue, against the test database, dev server and sandbox. */
export async function startWorkerProcess(
  harness: { sandboxUrl: string },
  taskQueue: string,
  env: Record<string, string> = {},
): Promise<EngineProcess> {
  const worker = spawnRole('worker', {
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: taskQueue,
    SANDBOX_URL: harness.sandboxUrl,
    LOG_LEVEL: 'info',
    ...env,
  });
  await waitFor('the worker to poll', () => worker.messages().includes('worker polling'), worker);
  return worker;
}
