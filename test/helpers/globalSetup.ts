import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embeddedPostgres';
import { applyMigrations } from '../../src/db/migrate';
import { freePort, startDevServer } from '../../temporal/devServer';

/**
 * One real Postgres (embedded, or DATABASE_URL) and one real Temporal dev server for the whole
 * run. Their addresses reach the test files through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-engine-test-'));
  // The server runs as the postgres OS user when we are root; it must be able to enter the folder.
  fs.chmodSync(runDir, 0o755);
  process.env.TEST_RUN_DIR = runDir;
  const stops: (() => Promise<void>)[] = [];

  let databaseUrl = process.env.DATABASE_URL;
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

  const temporal = await startDevServer({
    port: await freePort(),
    uiPort: await freePort(),
    namespace: 'default',
    headless: true,
    logFile: path.join(runDir, 'temporal.log'),
  });
  process.env.TEST_TEMPORAL_ADDRESS = temporal.address;
  stops.push(temporal.stop);

  (globalThis as { __stopTestServices?: () => Promise<void> }).__stopTestServices = async () => {
    for (const stop of stops.reverse()) await stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  };
}
