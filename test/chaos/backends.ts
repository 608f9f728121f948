import { parseConfig } from '../../src/config';
import { provideDatabase } from '../../src/db/database';
import { createPrismaClient } from '../../src/db/prisma';
import type { Logger } from '../../src/logging/logger';
import type { Lifecycle } from '../../src/runtime/shutdown';
import { provideTemporal } from '../../src/runtime/temporal';
import { freePort } from '../../temporal/devServer';

/**
 * What a split cluster (the chaos run, `npm run soak -- --split`) runs against: Postgres and the
 * Temporal dev server, embedded on free ports unless `external` names running ones, each stopped by
 * the lifecycle, and a small pool to the database for the driver's own reads.
 */
export async function startClusterBackends(
  dataDir: string,
  logger: Logger,
  lifecycle: Lifecycle,
  external: { DATABASE_URL?: string; TEMPORAL_ADDRESS?: string } = {},
) {
  const cfg = parseConfig({
    DATA_DIR: dataDir,
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
    TEMPORAL_DEV_SERVER_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    ...external,
  });
  const database = await provideDatabase(cfg, logger);
  lifecycle.add('postgres', database.stop);
  const db = createPrismaClient(database.url, 4);
  lifecycle.add('database pool', () => db.$disconnect());
  const temporal = await provideTemporal(cfg, logger);
  lifecycle.add('temporal', temporal.stop);
  return { cfg, databaseUrl: database.url, db, temporal };
}
