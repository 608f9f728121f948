import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildEngine } from '../../src/cli/build';
import { startEmbeddedPostgres } from '../../src/db/embeddedPostgres';
import { applyMigrations } from '../../src/db/migrate';
import { freePort, startDevServer } from '../../temporal/devServer';
import { ensureWorkflowBundle } from '../../temporal/prebuiltBundle';
import { createThrowawayDatabase } from './throwawayDatabase';

/**
 * One real Postgres and one real Temporal dev server for the whole run. Their addresses reach
 * the test files through the environment. Postgres is, in this order: TEST_DATABASE_URL as is
 * (you chose it for tests); a throwaway `payments_test_<random>` database on DATABASE_URL's
 * server, dropped at the end (never DATABASE_URL's own database); else embedded Postgres.
 */
export default async function globalSetup(): Promise<void> {
  // Tests that start the engine run dist/ as npm start does; compiled once here, before workers start.
  buildEngine();
  // The workflow bundle, once per run (kept in dist/ while its sources are unchanged): workers in
  // test files and spawned engines load it by path instead of each running webpack.
  process.env.TEST_WORKFLOW_BUNDLE = await ensureWorkflowBundle();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-engine-test-'));
  // The server runs as the postgres OS user when we are root; it must be able to enter the folder.
  fs.chmodSync(runDir, 0o755);
  process.env.TEST_RUN_DIR = runDir;
  const stops: (() => Promise<void>)[] = [];

  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl && process.env.DATABASE_URL) {
    const throwaway = await createThrowawayDatabase(process.env.DATABASE_URL);
    databaseUrl = throwaway.url;
    stops.push(throwaway.drop);
  }
  if (!databaseUrl) {
    const postgres = await startEmbeddedPostgres({
      dataDir: path.join(runDir, 'postgres'),
      port: await freePort(),
      database: 'payments_test',
      persistent: false,
    });
    databaseUrl = postgres.url;
    stops.push(postgres.stop);
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
  stops.push(temporal.stop);

  (globalThis as { __stopTestServices?: () => Promise<void> }).__stopTestServices = async () => {
    for (const stop of stops.reverse()) await stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  };
}
