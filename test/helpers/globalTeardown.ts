import { endTestRun } from './testRun';

/** Shared by every tier with a set-up; jest runs it once per run. */
export default async function globalTeardown(): Promise<void> {
  await endTestRun();
}
