import fs from 'node:fs';
import path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { historyToJson } from './historyJson';

/**
 * Recording of real workflow histories for the replay tests (`npm run replay:record`). Set by that
 * script only; in `npm test` it is unset and nothing here runs.
 */
export const recordDir = process.env.RECORD_HISTORIES_DIR;

async function write(dir: string, type: string, handle: WorkflowHandle, runId: string | undefined): Promise<void> {
  const history = await handle.fetchHistory();
  const folder = path.join(dir, type);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${handle.workflowId}--${runId ?? 'latest'}.json`), historyToJson(history));
}

/** Saves the history of every run on a task queue (closed or still running) as a replay candidate. */
export async function recordTaskQueueHistories(client: Client, taskQueue: string, dir: string): Promise<void> {
  for await (const run of client.workflow.list({ query: `TaskQueue = "${taskQueue}"` })) {
    await write(dir, run.type, client.workflow.getHandle(run.workflowId, run.runId), run.runId);
  }
}

/** Saves one run's history (time-skipping server, which has no visibility to list runs). */
export async function recordHistory(handle: WorkflowHandle, type: string, dir: string): Promise<void> {
  const description = await handle.describe();
  await write(dir, type, handle, description.runId);
}
