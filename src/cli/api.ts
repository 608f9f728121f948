import { applyMigrations } from '../db/migrate';
import { createPrismaClient } from '../db/prisma';
import { createLogger } from '../logging/logger';
import { startApi } from '../runtime/api';
import { answerMemoryProbes } from '../runtime/memoryProbe';
import { Lifecycle } from '../runtime/shutdown';
import { temporalSettingsFrom } from '../runtime/temporal';
import { sandboxUrlOf } from '../runtime/sandbox';
import { createTemporalClient } from '../../temporal/connection';
import { startTracingFromConfig } from '../tracing/tracing';
import { configOrExit } from './configOrExit';

const cfg = configOrExit('api');
const logger = createLogger(cfg.LOG_LEVEL);
const lifecycle = new Lifecycle(logger);

/** `npm run api`: only the HTTP API, against external Postgres and Temporal (production shape). */
async function main(): Promise<void> {
  if (!cfg.DATABASE_URL || !cfg.TEMPORAL_ADDRESS) {
    process.stderr.write(
      'api: invalid configuration: DATABASE_URL and TEMPORAL_ADDRESS are required (npm start has embedded defaults)\n',
    );
    process.exit(1);
  }
  lifecycle.exitOnSignals();
  const tracing = await startTracingFromConfig(cfg, 'payment-engine-api');
  if (tracing) lifecycle.add('tracing', tracing.stop);
  await applyMigrations(cfg.DATABASE_URL);
  const db = createPrismaClient(cfg.DATABASE_URL);
  lifecycle.add('database pool', () => db.$disconnect());
  const client = await createTemporalClient(temporalSettingsFrom(cfg, cfg.TEMPORAL_ADDRESS));
  lifecycle.add('temporal client', () => client.connection.close());
  const api = await startApi(
    { db, temporal: client, config: cfg, logger, taskQueue: cfg.TEMPORAL_TASK_QUEUE, sandboxUrl: sandboxUrlOf(cfg) },
    cfg.PORT,
    cfg.HOST,
  );
  lifecycle.add('api', api.stop);
  answerMemoryProbes();
  logger.info({ url: api.url }, 'api listening');
}

main().catch(async (error: unknown) => {
  logger.fatal({ err: error }, 'api failed to start');
  await lifecycle.exit(1);
});
