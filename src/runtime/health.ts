import type { Client } from '@temporalio/client';
import type { Db } from '../db/prisma';

/** How one probe went: its answer (when it gave one), how long it took, and why it failed. */
export interface ProbeResult<T> {
  value?: T;
  latencyMs: number;
  error?: string;
}

async function timed<T>(probe: () => Promise<T>): Promise<ProbeResult<T>> {
  const started = performance.now();
  try {
    const value = await probe();
    return { value, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  }
}

/** One round trip to the database: resolves when it answers, throws when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}

/**
 * Probes Postgres and Temporal at the same time. Temporal's answer is whether a worker polls the
 * task queue: a reachable server with no worker cannot run a payment.
 */
export async function probeHealth(deps: {
  db: Db;
  temporal: Client;
  namespace: string;
  taskQueue: string;
}): Promise<{ database: ProbeResult<void>; temporal: ProbeResult<boolean> }> {
  const [database, temporal] = await Promise.all([
    timed(() => pingDatabase(deps.db)),
    timed(async () => {
      const answer = await deps.temporal.workflowService.describeTaskQueue({
        namespace: deps.namespace,
        taskQueue: { name: deps.taskQueue },
        taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
      });
      return (answer.pollers?.length ?? 0) > 0;
    }),
  ]);
  return { database, temporal };
}
