import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchCommandOf } from '../helpers/launchCommand';

function packageJsonWith(scripts: Record<string, string>): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'launch-')), 'package.json');
  fs.writeFileSync(file, JSON.stringify({ scripts }));
  return file;
}

describe('launchCommandOf: the engine starts in tests as npm starts it', () => {
  const file = packageJsonWith({
    start:
      'MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} node --max-old-space-size=${ENGINE_MAX_HEAP_MB:-256} --import tsx src/cli/start.ts',
    plain: 'node --import tsx src/cli/sandbox.ts',
    shell: 'tsx src/cli/setup.ts',
  });

  it('takes the defaults of ${NAME:-default} when the variable is unset or empty', () => {
    expect(launchCommandOf('start', { ENGINE_MAX_HEAP_MB: '' }, file)).toEqual({
      env: { MALLOC_ARENA_MAX: '2' },
      args: ['--max-old-space-size=256', '--import', 'tsx', 'src/cli/start.ts'],
    });
  });

  it('takes the caller environment over the defaults', () => {
    const launch = launchCommandOf('start', { ENGINE_MAX_HEAP_MB: '512', MALLOC_ARENA_MAX: '4' }, file);
    expect(launch.env).toEqual({ MALLOC_ARENA_MAX: '4' });
    expect(launch.args[0]).toBe('--max-old-space-size=512');
  });

  it('reads a script without assignments', () => {
    expect(launchCommandOf('plain', {}, file)).toEqual({ env: {}, args: ['--import', 'tsx', 'src/cli/sandbox.ts'] });
  });

  it('refuses a script that is missing or does not run node', () => {
    expect(() => launchCommandOf('absent', {}, file)).toThrow('no script "absent"');
    expect(() => launchCommandOf('shell', {}, file)).toThrow('does not run node');
  });

  it("reads this project's start script: the heap caps and malloc arenas are set", () => {
    const launch = launchCommandOf('start', {});
    expect(launch.env.MALLOC_ARENA_MAX).toMatch(/^\d+$/);
    expect(launch.args).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--max-old-space-size=\d+$/),
        expect.stringMatching(/^--max-semi-space-size=\d+$/),
      ]),
    );
    expect(launch.args.at(-1)).toBe('dist/src/cli/start.js');
  });
});

/**
 * Allocates short-lived garbage on the main thread and in a worker thread (the isolate the Temporal
 * worker runs workflows in), then prints each one's committed new space in MB.
 */
const youngGenerationProbe = `
const v8 = require('node:v8');
const { Worker, isMainThread, parentPort } = require('node:worker_threads');
function churn() {
  let keep = [];
  for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 2e4) keep = []; }
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
}
if (isMainThread) {
  const main = churn();
  const worker = new Worker(__filename);
  worker.once('message', (thread) => { console.log(JSON.stringify({ main, thread })); worker.terminate(); });
} else parentPort.postMessage(churn());
`;

describe("the start script's young-generation cap (ENGINE_SEMI_SPACE_MB)", () => {
  function newSpaceMb(env: NodeJS.ProcessEnv): { main: number; thread: number } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'semi-space-'));
    const file = path.join(dir, 'probe.js');
    fs.writeFileSync(file, youngGenerationProbe);
    const flags = launchCommandOf('start', env).args.filter((arg) => arg.startsWith('--max-'));
    return JSON.parse(execFileSync(process.execPath, [...flags, file], { encoding: 'utf8' })) as {
      main: number;
      thread: number;
    };
  }

  it('holds new space to two semi-spaces of ENGINE_SEMI_SPACE_MB, in the workflow thread too', () => {
    const capped = newSpaceMb({ ENGINE_SEMI_SPACE_MB: '2' });
    expect(capped.main).toBeLessThanOrEqual(4);
    expect(capped.thread).toBeLessThanOrEqual(4);
    // The same churn under a higher cap commits more: the flag, not the workload, bounds it.
    const wider = newSpaceMb({ ENGINE_SEMI_SPACE_MB: '16' });
    expect(wider.main).toBeGreaterThan(4);
    expect(wider.thread).toBeGreaterThan(4);
  });
});
