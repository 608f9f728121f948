import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * `npm run bench` must keep working: a tiny run against the test run's Postgres and dev server
 * (no timing is judged here; the figures belong to the real bench).
 */
describe('npm run bench (smoke)', () => {
  it('pays through both paths and prints its rows and the target verdict', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, '..', '..', 'bench', 'run.ts')],
      {
        cwd: path.join(__dirname, '..', '..', '..'),
        env: {
          ...process.env,
          DATABASE_URL: process.env.TEST_DATABASE_URL,
          TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
          TEMPORAL_TASK_QUEUE: `bench-smoke-${Date.now()}`,
          BENCH_CLIENTS: '2',
          BENCH_PAYMENTS: '4',
          BENCH_WARMUP: '2',
        },
        // Generous: it starts a worker and bundles workflow code, slow on a loaded 2-core machine.
        timeout: 200_000,
      },
    );
    expect(stdout).toMatch(/pay-v2 over HTTP \+ Temporal \(2 clients\)\s+n=4 ok=4 /);
    expect(stdout).toMatch(/payment steps only: no HTTP, no Temporal \(2 clients\)\s+n=4 ok=4 /);
    expect(stdout).toMatch(/failed answers: engine 0, steps only 0/);
    expect(stdout).toMatch(/floor cpu per run: empty \d+\.\d ms, payment-shaped \d+\.\d ms/);
    expect(stdout).toMatch(/targets \(2 clients\):/);
  }, 240_000);
});
