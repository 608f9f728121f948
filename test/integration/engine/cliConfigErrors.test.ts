import { runCommand } from '../../helpers/runCommand';

const run = (script: string, args: string[], env: Record<string, string | undefined>) =>
  runCommand(process.execPath, ['--import', 'tsx', script, ...args], env);

/** A typo in the environment is an operator's mistake: one line naming it, exit 1, no stack trace. */
describe('command-line entry points with a bad variable', () => {
  it.each([
    ['start', 'src/cli/start.ts', []],
    ['api', 'src/cli/api.ts', []],
    ['worker', 'src/cli/worker.ts', []],
    ['admin', 'src/cli/admin.ts', ['list-keys']],
  ])('%s: LOG_LEVEL=loud', async (command, script, args) => {
    const answer = await run(script, args, {
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'postgresql://127.0.0.1:1/none',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
    });
    expect(answer.code).toBe(1);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toMatch(new RegExp(`^${command}: invalid configuration: LOG_LEVEL: .+\\n$`));
    expect(answer.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('api without DATABASE_URL and TEMPORAL_ADDRESS says so in one line', async () => {
    const answer = await run('src/cli/api.ts', [], { DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined });
    expect(answer.code).toBe(1);
    expect(answer.stderr).toBe(
      'api: invalid configuration: DATABASE_URL and TEMPORAL_ADDRESS are required (npm start has embedded defaults)\n',
    );
  });
});
