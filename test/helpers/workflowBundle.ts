import type { WorkerOptions } from '@temporalio/worker';
import { workflowBundle } from '../../temporal/worker';

/**
 * The workflow bundle jest's global set-up built once for the whole run (dist/workflow-bundle/,
 * see test/helpers/setup), by path. Every jest worker file, harness and time-skipping worker loads
 * this file instead of running webpack again in a fresh module registry. Outside such a run (a
 * config without the set-up) the code is bundled in this process, as before.
 */
export function testWorkflowCodePath(): string | undefined {
  return process.env.TEST_WORKFLOW_BUNDLE || undefined;
}

export async function testWorkflowBundle(): Promise<NonNullable<WorkerOptions['workflowBundle']>> {
  const codePath = testWorkflowCodePath();
  return codePath ? { codePath } : workflowBundle();
}
