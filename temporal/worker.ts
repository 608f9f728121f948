import path from 'node:path';
import {
  bundleWorkflowCode,
  Worker,
  type NativeConnection,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import type { Activities } from '../activities';
import { projectRoot } from '../src/projectRoot';
import { workerTracingOptions } from '../src/tracing/temporal';
import { livenessHeartbeats } from './heartbeat';

// From the project root, not __dirname: webpack bundles the TypeScript sources, also when this file runs compiled.
export const workflowsPath = path.join(projectRoot, 'workflows', 'index.ts');
/** Bundled with the workflows (by both bundling paths): OpenTelemetry for traced calls only. */
export const workflowInterceptorModules = [path.join(projectRoot, 'workflows', 'tracing.ts')];

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundles workflow code once per process; several workers in one process share it. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, logger: quietBundlerLogger });
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
  /** Sticky cache size: see workerConcurrency. */
  maxCachedWorkflows: number;
  /** A bundle written by buildWorkflowBundleFile; without it the code is bundled in this process. */
  workflowCodePath?: string;
}

/**
 * The workflow cache is set, not left to the SDK: its default scales with V8's heap limit (about
 * 600 workflows per GiB, 2,300 on a 4 GiB heap), so an engine sharing its process with the API
 * would keep thousands of open runs (3DS waits, subscriptions between renewals, webhook retries)
 * resident. Payment workflows finish within their API call and leave the cache at once; what
 * stays is long-lived runs, which an eviction only costs one replay of a short history when they
 * next wake. Workflow tasks in flight cannot exceed the cache (the SDK's rule), so concurrency
 * follows it down.
 */
export function workerConcurrency(maxCachedWorkflows: number) {
  const workflowTasks = maxCachedWorkflows === 0 ? 200 : Math.max(2, Math.min(200, maxCachedWorkflows));
  return {
    maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: workflowTasks,
    maxConcurrentActivityTaskExecutions: 200,
  };
}

/** Tracing's interceptors (when tracing) after the liveness heartbeats every worker has. */
function workerInterceptors() {
  const tracing = workerTracingOptions();
  return {
    sinks: tracing.sinks,
    interceptors: { activity: [livenessHeartbeats, ...(tracing.interceptors?.activity ?? [])] },
  };
}

/** A worker running every workflow in workflows/ and the given activities. */
export async function createWorker(options: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: options.workflowCodePath ? { codePath: options.workflowCodePath } : await workflowBundle(),
    activities: options.activities,
    ...workerInterceptors(),
    ...workerConcurrency(options.maxCachedWorkflows),
    // A workflow's next task goes to the sticky queue of the worker that ran its last one; when that
    // worker was killed, the task waits this long before any worker may take it (10 s by default,
    // which a crashed payment paid on top of its processor call's 5 s heartbeat timeout).
    stickyQueueScheduleToStartTimeout: '3 seconds',
  });
}
