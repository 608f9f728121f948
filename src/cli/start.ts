import { provideDatabase } from '../db/database';
import { createPrismaClient } from '../db/prisma';
import { createLogger } from '../logging/logger';
import { startApi } from '../runtime/api';
import { startSandbox } from '../../simulators/server';
import { Lifecycle } from '../runtime/shutdown';
import { answerMemoryProbes } from '../runtime/memoryProbe';
import { installTemporalRuntime } from '../runtime/temporalRuntime';
import { provideTemporal } from '../runtime/temporal';
import { ensureMaintenanceWorkflow, startWorker } from '../runtime/worker';
import { createTemporalClient } from '../../temporal/connection';
import { buildWorkflowBundleFile, freshBundle } from '../../temporal/prebuiltBundle';
import { startTracingFromConfig } from '../tracing/tracing';
import path from 'node:path';
import { withStartDefaults } from '../config';
import { configOrExit } from './configOrExit';

/** `npm start`: Postgres, migrations, Temporal, worker, then the HTTP API, in that order. */
async function main(): Promise<void> {
  const cfg = withStartDefaults(configOrExit('start'));
  const logger = createLogger(cfg.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger);
  lifecycle.exitOnSignals();
  try {
    const temporalMetrics = installTemporalRuntime(logger, { metricsPort: cfg.TEMPORAL_METRICS_PORT, host: cfg.HOST });
    if (temporalMetrics) logger.info({ url: temporalMetrics }, 'temporal sdk metrics listening');
    // Before the Temporal client and the app are made: both look for it.
    const tracing = await startTracingFromConfig(cfg, 'payment-engine');
    // Own process groups: a Ctrl-C reaches only us, and the Lifecycle stops them after the drain.
    const database = await provideDatabase(cfg, logger, { ownProcessGroup: true });
    lifecycle.add('postgres', database.stop);
    const db = createPrismaClient(database.url);
    lifecycle.add('database pool', () => db.$disconnect());

    const temporal = await provideTemporal(cfg, logger, { ownProcessGroup: true });
    lifecycle.add('temporal', temporal.stop);
    const client = await createTemporalClient(temporal.settings);
    lifecycle.add('temporal client', () => client.connection.close());

    const sandbox = await startSandbox(cfg.SANDBOX_PORT, '127.0.0.1', { dataDir: cfg.DATA_DIR, limits: cfg });
    lifecycle.add('sandbox', sandbox.stop);

    // Stopped once the worker and the API have ended their spans.
    if (tracing) lifecycle.add('tracing', tracing.stop);
    // The bundle `npm run build` made, unless a source changed since; then one of our own.
    const workflowCodePath = freshBundle() ?? (await buildWorkflowBundleFile(path.join(cfg.DATA_DIR, 'worker')));
    const worker = await startWorker(
      temporal.settings,
      cfg.TEMPORAL_TASK_QUEUE,
      { db, logger, config: cfg, sandboxUrl: sandbox.url, temporal: client },
      { workflowCodePath },
    );
    lifecycle.add('worker', worker.stop);
    await ensureMaintenanceWorkflow(client, cfg.TEMPORAL_TASK_QUEUE);

    const api = await startApi(
      { db, temporal: client, config: cfg, logger, taskQueue: cfg.TEMPORAL_TASK_QUEUE, sandboxUrl: sandbox.url },
      cfg.PORT,
      cfg.HOST,
    );
    lifecycle.add('api', api.stop);
    answerMemoryProbes();

    process.stdout.write(
      [
        '',
        `  Payment engine is up.`,
        `  API:           ${api.url}/api/public/v1   (health: ${api.url}/api/public/v1/health)`,
        `  API reference: ${api.url}/docs`,
        `  OpenAPI:       ${api.url}/openapi.json`,
        `  Sandbox:       ${sandbox.url}   (simulated acquirer, 3DS server, outbox, webhook inbox)`,
        `  Temporal UI:   ${temporal.uiUrl ?? `(external Temporal at ${temporal.settings.address})`}`,
        `  Press Ctrl-C to stop.`,
        '',
      ].join('\n') + '\n',
    );
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    await lifecycle.exit(1);
  }
}

void main();
