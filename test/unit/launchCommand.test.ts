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

  it("reads this project's start script: the heap cap and malloc arenas are set", () => {
    const launch = launchCommandOf('start', {});
    expect(launch.env.MALLOC_ARENA_MAX).toMatch(/^\d+$/);
    expect(launch.args).toEqual(expect.arrayContaining([expect.stringMatching(/^--max-old-space-size=\d+$/)]));
    expect(launch.args.at(-1)).toBe('dist/src/cli/start.js');
  });
});
