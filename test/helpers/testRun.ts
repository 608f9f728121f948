import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWorkflowBundle } from '../../temporal/prebuiltBundle';
import { testServerPath } from '../../temporal/binaries';
import { killNotedTestServers } from './testServers';

type Stop = () => Promise<void> | void;
// Jest loads each project's set-up and tear-down module on its own; what they share lives here.
const run = globalThis as { __testRunStops?: Stop[]; __testRunDir?: string };

/** Runs `stop` in the global tear-down, after anything registered later (last in, first out). */
export function atTestRunEnd(stop: Stop): void {
  (run.__testRunStops ??= []).push(stop);
}

/**
 * What every tier but unit needs, made once per run however many of their set-ups run: the run's
 * folder (TEST_RUN_DIR) and the workflow bundle (TEST_WORKFLOW_BUNDLE: dist/workflow-bundle/,
 * rebuilt only when a source it was built from changed), which every worker loads by path.
 */
export async function prepareTestRun(): Promise<string> {
  if (!run.__testRunDir) {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-engine-test-'));
    // The Postgres server runs as the postgres OS user when we are root; it must be able to enter the folder.
    fs.chmodSync(runDir, 0o755);
    run.__testRunDir = runDir;
    process.env.TEST_RUN_DIR = runDir;
    atTestRunEnd(() => fs.rmSync(runDir, { recursive: true, force: true }));
    atTestRunEnd(async () => {
      const killed = await killNotedTestServers(runDir, testServerPath());
      if (killed > 0) process.stderr.write(`[tear-down] killed ${killed} time-skipping test server(s) left running\n`);
    });
  }
  process.env.TEST_WORKFLOW_BUNDLE ??= await ensureWorkflowBundle();
  return run.__testRunDir;
}

export async function endTestRun(): Promise<void> {
  const stops = (run.__testRunStops ?? []).reverse();
  run.__testRunStops = [];
  run.__testRunDir = undefined;
  for (const stop of stops) await stop();
}
