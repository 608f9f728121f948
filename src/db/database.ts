import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { startEmbeddedPostgres } from './embeddedPostgres';
import { applyMigrations } from './migrate';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * Uses DATABASE_URL when set, otherwise starts embedded Postgres (in its own process group when
 * the caller's Lifecycle handles signals); then applies migrations.
 */
export async function provideDatabase(
  cfg: Config,
  logger: Logger,
  options: { ownProcessGroup?: boolean } = {},
): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (cfg.DATABASE_URL) {
    handle = { url: cfg.DATABASE_URL, embedded: false, stop: async () => undefined };
  } else {
    const running = await startEmbeddedPostgres({
      dataDir: path.join(cfg.DATA_DIR, 'postgres'),
      port: cfg.EMBEDDED_POSTGRES_PORT,
      database: 'payments',
      ownProcessGroup: options.ownProcessGroup,
      logger,
    });
    handle = { url: running.url, embedded: true, stop: running.stop };
    logger.info({ port: cfg.EMBEDDED_POSTGRES_PORT }, 'embedded postgres started');
  }
  const applied = await applyMigrations(handle.url);
  logger.info({ applied }, applied.length ? 'migrations applied' : 'database schema up to date');
  return handle;
}
