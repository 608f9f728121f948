import { launchCommandOf } from '../../helpers/launchCommand';
import { runCommand } from '../../helpers/runCommand';

/** The npm script's own node command (dist/ for the engine's roles, tsx for admin); jest's set-up built dist/. */
const run = (script: string, args: string[], env: Record<string, string | undefined>) =>
  runCommand(process.execPath, [...launchCommandOf(script, {}).args, ...args], env);

/** A typo in the environment is an operator's mistake: one line naming it, exit 1, no stack trace. */
describe('command-line entry points with a bad variable', () => {
  it.each([
    ['start', []],
    ['api', []],
    ['worker', []],
    ['admin', ['list-keys']],
  ])('%s: LOG_LEVEL=loud', async (command, args) => {
    const answer = await run(command, args, {
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'postgresql://127.0.0.1:1/none',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
    });
    expect(answer.code).toBe(1);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toMatch(new RegExp(`^${command}: invalid configuration: LOG_LEVEL: .+\\n$`));
    expect(answer.stderr.trim().split('\n')).toHaveLength(1);
  });

  // The generated key file sits beside the database: in production the key must come from the environment.
  it.each([
    ['start', []],
    ['api', []],
    ['worker', []],
    ['admin', ['rotate-keys']],
  ])('%s: NODE_ENV=production without ENCRYPTION_KEY refuses to start', async (command, args) => {
    const answer = await run(command, args, {
      NODE_ENV: 'production',
      ENCRYPTION_KEY: undefined,
      DATABASE_URL: 'postgresql://127.0.0.1:1/none',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
    });
    expect(answer.code).toBe(1);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toMatch(
      new RegExp(`^${command}: invalid configuration: ENCRYPTION_KEY: must be set when NODE_ENV=production .+\\n$`),
    );
  });

  it('api without DATABASE_URL and TEMPORAL_ADDRESS says so in one line', async () => {
    const answer = await run('api', [], { DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined });
    expect(answer.code).toBe(1);
    expect(answer.stderr).toBe(
      'api: invalid configuration: DATABASE_URL and TEMPORAL_ADDRESS are required (npm start has embedded defaults)\n',
    );
  });
});
