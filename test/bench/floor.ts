import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { startAndAwait } from '../../temporal/client';
import { createWorkerConnection, type TemporalSettings } from '../../temporal/connection';
import { workerConcurrency } from '../../temporal/worker';
import { floorActivities } from './floorActivities';
import { floorOutcomeUpdate } from './floorWorkflows';

export type FloorWorkflow = 'emptyFloorWorkflow' | 'paymentShapedFloorWorkflow' | 'allLocalFloorWorkflow';

/**
 * A worker for the floor workflows on a task queue of its own, on the same dev server and with the
 * engine worker's concurrency settings, so the engine and its floor differ only in the work done.
 */
export async function startFloorWorker(settings: TemporalSettings, taskQueue: string, maxCachedWorkflows: number) {
  const connection = await createWorkerConnection(settings);
  const worker = await Worker.create({
    connection,
    namespace: settings.namespace,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'floorWorkflows.ts'),
      logger: {
        log: () => undefined,
        trace: () => undefined,
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: (m) => process.stderr.write(`[floor bundle] ${m}\n`),
      },
    }),
    activities: floorActivities,
    ...workerConcurrency(maxCachedWorkflows),
  });
  const running = worker.run();
  return {
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** One floor run as pay-v2 starts a payment: update-with-start, waiting for the update's answer. */
export function floorRun(client: Client, taskQueue: string, type: FloorWorkflow) {
  return async (): Promise<{ ok: boolean; workflowId: string }> => {
    const workflowId = `floor_${randomUUID()}`;
    const answer = await startAndAwait(client, {
      start: { type, workflowId, taskQueue, args: [], searchAttributes: [] },
      answer: { update: floorOutcomeUpdate, args: [] },
      deadlineMs: 30_000,
      onDeadline: () => 'late',
    });
    return { ok: answer === 'succeeded', workflowId };
  };
}
