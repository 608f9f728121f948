import type { Client } from '@temporalio/client';
import { parseConfig, type Config } from '../../src/config';
import { createPrismaClient, type Db } from '../../src/db/prisma';
import { createLogger, type Logger } from '../../src/logging/logger';
import { startApi } from '../../src/runtime/api';
import type { AppDeps } from '../../src/runtime/appDeps';
import { startWorker } from '../../src/runtime/worker';
import { startSandbox } from '../../simulators/server';
import { createTemporalClient } from '../../temporal/connection';
import { recordDir, recordTaskQueueHistories } from '../replay/historyRecorder';
import { testWorkflowCodePath } from './workflowBundle';

export interface Harness {
  url: string;
  sandboxUrl: string;
  db: Db;
  temporal: Client;
  config: Config;
  logger: Logger;
  taskQueue: string;
  stop(): Promise<void>;
}

let counter = 0;

/**
 * The real app against the run's Postgres and Temporal dev server (see globalSetup), with its
 * own worker on its own task queue so test files running side by side do not share work.
 */
export async function startHarness(
  env: Record<string, string> = {},
  extraDeps: Pick<AppDeps, 'dnsTxt'> = {},
): Promise<Harness> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const temporalAddress = process.env.TEST_TEMPORAL_ADDRESS;
  if (!databaseUrl || !temporalAddress) throw new Error('integration tests need jest globalSetup (run them with jest)');
  const taskQueue = `it-${process.pid}-${++counter}-${Date.now()}`;
  const config = parseConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    SANDBOX_PORT: '0',
    // The tests' webhook receivers listen on loopback; a test overrides this to see the refusal.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    ...env,
  });
  const logger = createLogger(config.LOG_LEVEL);
  const db = createPrismaClient(databaseUrl, 10);
  const settings = { address: temporalAddress, namespace: config.TEMPORAL_NAMESPACE };
  const temporal = await createTemporalClient(settings);
  const sandbox = await startSandbox(0);
  const worker = await startWorker(
    settings,
    taskQueue,
    { db, logger, config, sandboxUrl: sandbox.url, temporal, ...extraDeps },
    { workflowCodePath: testWorkflowCodePath() },
  );
  const api = await startApi(
    { db, temporal, config, logger, taskQueue, sandboxUrl: sandbox.url, ...extraDeps },
    0,
    '127.0.0.1',
  );
  return {
    url: api.url,
    sandboxUrl: sandbox.url,
    db,
    temporal,
    config,
    logger,
    taskQueue,
    stop: async () => {
      if (recordDir) await recordTaskQueueHistories(temporal, taskQueue, recordDir);
      await api.stop();
      await worker.stop();
      await sandbox.stop();
      await db.$disconnect();
      // Last, once the API and the worker have stopped calling: an open channel keeps the file's
      // whole module graph alive in the jest worker and the worker process from exiting.
      await temporal.connection.close();
    },
  };
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A JSON request against the harness; `raw` sends a body string as is. */
export async function call<T = any>(
  harness: { url: string },
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined || options.raw !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${harness.url}${path}`, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // non-JSON answers (HTML challenge pages) stay text
  }
  return { status: response.status, body: body as T, headers: response.headers };
}
