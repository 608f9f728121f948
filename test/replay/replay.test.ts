import fs from 'node:fs';
import path from 'node:path';
import { historyFromJson } from './historyJson';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import * as workflows from '../../workflows';
import { workflowBundle } from '../../temporal/worker';

/**
 * Histories recorded from real runs (`npm run replay:record`) replayed against today's workflow
 * code. A change that would make a running workflow take another path (a command added, removed
 * or reordered) fails here with a non-determinism error: guard it with `patched()` or record anew
 * when nothing that ran the old code is still open (see docs/workflows.md).
 */
const historiesDir = path.join(__dirname, 'histories');
const files = fs
  .readdirSync(historiesDir)
  .filter((name) => name.endsWith('.json'))
  .sort();

describe('replay of recorded workflow histories', () => {
  it('has at least one recorded history for every workflow type the worker runs', () => {
    const recordedTypes = new Set(files.map((name) => name.split('.')[0]));
    const missing = Object.keys(workflows).filter((type) => !recordedTypes.has(type));
    expect(missing).toEqual([]);
  });

  it.each(files)('%s replays without non-determinism', async (file) => {
    const history = historyFromJson(JSON.parse(fs.readFileSync(path.join(historiesDir, file), 'utf8')));
    const workflowId = file.split('.')[2];
    await expect(
      Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId),
    ).resolves.toBeUndefined();
  });

  it('fails a history when the workflow code changed the commands it issues', async () => {
    const file = files.find((name) => name.startsWith('maintenanceWorkflow.'));
    expect(file).toBeDefined();
    const history = historyFromJson(JSON.parse(fs.readFileSync(path.join(historiesDir, file!), 'utf8')));
    const changed = { workflowsPath: path.join(__dirname, 'fixtures', 'changedMaintenance.ts') };
    await expect(Worker.runReplayHistory(changed, history, file!.split('.')[2])).rejects.toThrow(
      DeterminismViolationError,
    );
  });
});
