import path from 'node:path';
import {
  bundleWorkflowCode,
  Worker,
  type NativeConnection,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import type { Activities } from '../activities';

export const workflowsPath = path.join(__dirname, '..', 'workflows', 'index.ts');

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundles workflow code once per process; several workers in one process share it. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath, logger: quietBundlerLogger });
  return bundle;
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`[workflow bundle] ${message}\n`),
  error: (message: string) => process.stderr.write(`[workflow bundle] ${message}\n`),
};

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: Activities;
}

/** A worker running every workflow in workflows/ and the given activities. */
export async function createWorker(options: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: options.activities,
    maxConcurrentActivityTaskExecutions: 200,
    maxConcurrentWorkflowTaskExecutions: 200,
  });
}
