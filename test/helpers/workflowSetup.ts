import { prepareTestRun } from './testRun';

/** The workflow tier's set-up: the run's folder and the workflow bundle; no Postgres, no dev server. */
export default async function workflowSetup(): Promise<void> {
  await prepareTestRun();
}
