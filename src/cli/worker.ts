import { applyMigrations } from '../db/migrate';
import { createPrismaClient } from '../db/prisma';
import { createLogger } from '../logging/logger';
import { answerMemoryProbes } from '../runtime/memoryProbe';
import { Lifecycle } from '../runtime/shutdown';
import { installTemporalRuntime } from '../runtime/temporalRuntime';
import { temporalSettingsFrom } from '../runtime/temporal';
import { sandboxUrlOf } from '../runtime/sandbox';
import { ensureMaintenanceWorkflow, startWorker } from '../runtime/worker';
import { createTemporalClient } from '../../temporal/connection';
import { buildWorkflowBundleFile, freshBundle } from '../../temporal/prebuiltBundle';
import path from 'node:path';
import { startMetricsServer } from '../metrics/http';
import { startTracingFromConfig } from '../tracing/tracing';
import { configOrExit } from './configOrExit';

const cfg = configOrExit('worker');
const logger = createLogger(cfg.LOG_LEVEL);
const lifecycle = new Lifecycle(logger);

/** `npm run worker`: only a Temporal worker, against external Postgres and Temporal. */
async function main(): Promise<void> {
  if (!cfg.DATABASE_URL || !cfg.TEMPORAL_ADDRESS) {
    process.stderr.write(
      'worker: invalid configuration: DATABASE_URL and TEMPORAL_ADDRESS are required (npm start has embedded defaults)\n',
    );
    process.exit(1);
  }
  const temporalMetrics = installTemporalRuntime(logger, { metricsPort: cfg.TEMPORAL_METRICS_PORT, host: cfg.HOST });
  if (temporalMetrics) logger.info({ url: temporalMetrics }, 'temporal sdk metrics listening');
  lifecycle.exitOnSignals();
  const tracing = await startTracingFromConfig(cfg, 'payment-engine-worker');
  if (tracing) lifecycle.add('tracing', tracing.stop);
  await applyMigrations(cfg.DATABASE_URL);
  const db = createPrismaClient(cfg.DATABASE_URL);
  lifecycle.add('database pool', () => db.$disconnect());
  const settings = temporalSettingsFrom(cfg, cfg.TEMPORAL_ADDRESS);
  const client = await createTemporalClient(settings);
  lifecycle.add('temporal client', () => client.connection.close());
  // The bundle `npm run build` made, unless a source changed since; then one of our own.
  const workflowCodePath = freshBundle() ?? (await buildWorkflowBundleFile(path.join(cfg.DATA_DIR, 'worker')));
  const worker = await startWorker(
    settings,
    cfg.TEMPORAL_TASK_QUEUE,
    { db, logger, config: cfg, sandboxUrl: sandboxUrlOf(cfg), temporal: client },
    { workflowCodePath },
  );
  lifecycle.add('worker', worker.stop);
  if (cfg.METRICS_ENABLED && cfg.WORKER_METRICS_PORT !== undefined) {
    const metrics = await startMetricsServer(cfg.WORKER_METRICS_PORT, cfg.HOST);
    lifecycle.add('worker metrics', metrics.stop);
    logger.info({ url: metrics.url }, 'worker metrics listening');
  }
  await ensureMaintenanceWorkflow(client, cfg.TEMPORAL_TASK_QUEUE);
  answerMemoryProbes();
  logger.info({ taskQueue: cfg.TEMPORAL_TASK_QUEUE }, 'worker polling');
}

main().catch(async (error: unknown) => {
  logger.fatal({ err: error }, 'worker failed to start');
  await lifecycle.exit(1);
});
