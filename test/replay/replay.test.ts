import fs from 'node:fs';
import path from 'node:path';
import { historyFromJson } from './historyJson';
import {
  bundleWorkflowCode,
  DefaultLogger,
  Worker,
  type ReplayResult,
  type ReplayWorkerOptions,
} from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import * as workflows from '../../workflows';
import { workerTracingOptions } from '../../src/tracing/temporal';
import { workflowsPath } from '../../temporal/worker';
import { testWorkflowBundle } from '../helpers/workflowBundle';
import { releasedFiles } from './releasedManifest';

/**
 * Histories recorded from real runs (`npm run replay:record`) replayed against today's workflow
 * code. A change that would make a running workflow take another path (a command added, removed
 * or reordered) fails here with a non-determinism error: guard it with `patched()` or record anew
 * when nothing that ran the old code is still open (see docs/testing.md, "Replay by branch").
 */
// `histories/released/` holds one history per branch (command signature) of every workflow type,
// frozen (MANIFEST.json, checked by test/unit/releasedHistories.test.ts): a workflow change must keep
// them replaying (behind `patched()`); recording only adds histories of branches not there yet.
const historiesDir = path.join(__dirname, 'histories');
const files = releasedFiles().map((name) => path.join('released', name));
const workflowTypeOf = (file: string) => path.basename(file).split('.')[0];
const workflowIdOf = (file: string) => path.basename(file).split('.')[2]!;
const historyOf = (file: string) => historyFromJson(JSON.parse(fs.readFileSync(path.join(historiesDir, file), 'utf8')));

/** Replays `histories` through one replay worker; the result of each, by workflow id. */
async function replayAll(options: ReplayWorkerOptions, histories: string[]): Promise<Map<string, ReplayResult>> {
  const results = new Map<string, ReplayResult>();
  const inputs = histories.map((file) => ({ workflowId: workflowIdOf(file), history: historyOf(file) }));
  for await (const result of Worker.runReplayHistories(options, inputs)) results.set(result.workflowId, result);
  return results;
}

describe('replay of recorded workflow histories', () => {
  // The run's prebuilt bundle (jest's global set-up); bundling here only outside such a run, with its own
  // allowance so that on a loaded machine it is not charged to whichever history happens to replay first.
  let bundle: Awaited<ReturnType<typeof testWorkflowBundle>>;
  // All histories through one replay worker (one per history cost about a second each).
  let results: Map<string, ReplayResult>;
  beforeAll(async () => {
    bundle = await testWorkflowBundle();
    results = await replayAll({ workflowBundle: bundle }, files);
  }, 600_000);

  it('has at least one recorded history for every workflow type the worker runs', () => {
    const recordedTypes = new Set(files.map(workflowTypeOf));
    const missing = Object.keys(workflows).filter((type) => !recordedTypes.has(type));
    expect(missing).toEqual([]);
  });

  it('names every history by a workflow id of its own', () => {
    expect(new Set(files.map(workflowIdOf)).size).toBe(files.length);
  });

  it.each(files)('%s replays without non-determinism', (file) => {
    const result = results.get(workflowIdOf(file));
    expect(result).toBeDefined();
    expect(result!.error).toBeUndefined();
  });

  // Traced calls run OpenTelemetry's workflow interceptors (workflows/tracing.ts); with them on every
  // call, as if every released run had been traced, the same commands must come out.
  it('replays the released histories with every workflow call traced', async () => {
    const tracedEverywhere = await bundleWorkflowCode({
      workflowsPath,
      workflowInterceptorModules: [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')],
      logger: new DefaultLogger('WARN'),
    });
    expect(tracedEverywhere.code).toContain('RunWorkflow');
    expect(files.length).toBeGreaterThan(0);
    const traced = await replayAll({ workflowBundle: tracedEverywhere, sinks: workerTracingOptions().sinks }, files);
    const failed = [...traced.values()].filter((result) => result.error !== undefined);
    expect(failed.map((result) => [result.workflowId, String(result.error)])).toEqual([]);
    expect(traced.size).toBe(files.length);
    // Bundles its own traced copy of the workflow code.
  }, 300_000);

  it('fails a history when the workflow code changed the commands it issues', async () => {
    const file = files.find((name) => workflowTypeOf(name) === 'maintenanceWorkflow');
    expect(file).toBeDefined();
    const changed = { workflowsPath: path.join(__dirname, 'fixtures', 'changedMaintenance.ts') };
    // Through the same batch replay the histories above go through: the violation is reported, not lost.
    const result = (await replayAll(changed, [file!])).get(workflowIdOf(file!));
    expect(result?.error).toBeInstanceOf(DeterminismViolationError);
    // Bundles the changed workflow code.
  }, 300_000);
});
