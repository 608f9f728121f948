import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporalCliPath } from './binaries';
import { searchAttributeFlags } from './searchAttributes';

export interface DevServerOptions {
  port: number;
  uiPort: number;
  namespace: string;
  /** SQLite file so workflow history survives restarts; omit for an in-memory server (tests). */
  dbFilename?: string;
  logFile?: string;
  headless?: boolean;
  /** A `temporal` binary other than the pinned one set-up installs (TEMPORAL_CLI_PATH). */
  cliPath?: string;
  /**
   * Its own process group, so the terminal's Ctrl-C reaches only us and the server is still there
   * while the worker drains. Only for a caller whose Lifecycle stops it on signals; anyone else
   * (jest) wants it to die with the group.
   */
  ownProcessGroup?: boolean;
}

export interface RunningDevServer {
  address: string;
  uiUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const queueProcessorPollRates = [
  'history.transferProcessorMaxPollRPS',
  'history.timerProcessorMaxPollRPS',
  'history.visibilityProcessorMaxPollRPS',
];

/** Starts `temporal server start-dev` and waits until its frontend answers. */
export async function startDevServer(options: DevServerOptions): Promise<RunningDevServer> {
  await assertPortFree(options.port);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--namespace',
    options.namespace,
    '--log-level',
    'warn',
    // Update-with-start needs multi-operations enabled on servers that default it off.
    '--dynamic-config-value',
    'frontend.enableExecuteMultiOperation=true',
    '--dynamic-config-value',
    'frontend.enableUpdateWorkflowExecution=true',
    // History's queue processors poll for new tasks at most 20 times a second by default, so under
    // steady load every workflow task waited for the next 50 ms tick before reaching matching
    // (an empty workflow took ~49 ms; ~14 ms with this). See README, Speed.
    ...queueProcessorPollRates.flatMap((setting) => ['--dynamic-config-value', `${setting}=10000`]),
    ...searchAttributeFlags.flatMap((flag) => ['--search-attribute', flag]),
  ];
  if (options.headless) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort));
  if (options.dbFilename) {
    // The history holds payment ids, amounts and customers' ids: the engine's user only.
    fs.mkdirSync(path.dirname(options.dbFilename), { recursive: true, mode: 0o700 });
    args.push('--db-filename', options.dbFilename);
    // WAL with synchronous=NORMAL survives a crash of the server process (not of the OS) and
    // stops every history write from waiting on an fsync: the dev server's largest cost per payment.
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  const out = options.logFile ? fs.openSync(options.logFile, 'a', 0o600) : 'ignore';
  const child = spawn(temporalCliPath(options.cliPath), args, {
    stdio: ['ignore', out, out],
    detached: options.ownProcessGroup ?? false,
  });
  if (typeof out === 'number') fs.closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const running = () => child.exitCode === null && child.signalCode === null;
  // Last resort when this process dies without stopping it (a crash, process.exit mid start-up).
  const lastResort = () => {
    if (running()) child.kill('SIGTERM');
  };
  process.on('exit', lastResort);
  void exited.then(() => process.off('exit', lastResort));
  const address = `127.0.0.1:${options.port}`;
  try {
    await waitUntilReady(address, options.namespace, exited);
  } catch (error) {
    lastResort();
    throw error;
  }
  return {
    address,
    uiUrl: `http://localhost:${options.uiPort}`,
    process: child,
    stop: async () => {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitUntilReady(address: string, namespace: string, exited: Promise<number | null>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (gone) throw new Error('temporal dev server exited during start-up (see its log file)');
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`temporal dev server did not become ready on ${address}`);
}

function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', () =>
      reject(new Error(`port ${port} is in use: is another engine or Temporal server running?`)),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/** A free TCP port on loopback (for tests that run several servers side by side). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
