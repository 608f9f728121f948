import path from 'node:path';
import { buildEngine } from '../../src/cli/build';
import { startEmbeddedPostgres } from '../../src/db/embeddedPostgres';
import { applyMigrations } from '../../src/db/migrate';
import { freePort, startDevServer } from '../../temporal/devServer';
import { atTestRunEnd, prepareTestRun } from './testRun';
import { probeTestRedis } from './redis';
import { createThrowawayDatabase } from './throwawayDatabase';

/**
 * The set-up of the integration and system tiers (jest runs it once, and only when a file of one
 * of them is selected): one real Postgres and one real Temporal dev server for the whole run. Their addresses reach
 * the test files through the environment. Postgres is, in this order: TEST_DATABASE_URL as is
 * (you chose it for tests); a throwaway `payments_test_<random>` database on DATABASE_URL's
 * server, dropped at the end (never DATABASE_URL's own database); else embedded Postgres.
 */
export default async function globalSetup(): Promise<void> {
  // Tests that start the engine run dist/ as npm start does; compiled once here, before workers start.
  buildEngine();
  // The workflow bundle (spawned engines load it from dist/ too) and the run's folder.
  const runDir = await prepareTestRun();

  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl && process.env.DATABASE_URL) {
    const throwaway = await createThrowawayDatabase(process.env.DATABASE_URL);
    databaseUrl = throwaway.url;
    atTestRunEnd(throwaway.drop);
  }
  if (!databaseUrl) {
    const postgres = await startEmbeddedPostgres({
      dataDir: path.join(runDir, 'postgres'),
      port: await freePort(),
      database: 'payments_test',
      persistent: false,
    });
    databaseUrl = postgres.url;
    atTestRunEnd(postgres.stop);
  }
  await applyMigrations(databaseUrl);
  process.env.TEST_DATABASE_URL = databaseUrl;
  // Anything in a test that falls back to DATABASE_URL reaches the run's database too.
  process.env.DATABASE_URL = databaseUrl;

  const temporal = await startDevServer({
    port: await freePort(),
    uiPort: await freePort(),
    namespace: 'default',
    headless: true,
    logFile: path.join(runDir, 'temporal.log'),
    cliPath: process.env.TEMPORAL_CLI_PATH,
  });
  process.env.TEST_TEMPORAL_ADDRESS = temporal.address;
  atTestRunEnd(temporal.stop);

  // The shared rate-limit tests need Redis: asked once here, skipped with this reason when none answers.
  const redisSkipReason = await probeTestRedis();
  if (redisSkipReason) {
    process.env.TEST_REDIS_SKIP_REASON = redisSkipReason;
    process.stdout.write(`\nRedis tests skipped: ${redisSkipReason}\n`);
  } else delete process.env.TEST_REDIS_SKIP_REASON;
}
