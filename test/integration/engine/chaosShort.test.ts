import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * `npm run chaos`, short: 50 payments from 4 clients with one `kill -9` of the worker process,
 * aimed at a payment held at the acquirer (the holding card), against the test run's Postgres and
 * dev server. The full run (500 payments, API and sandbox killed too) is `npm run chaos`.
 */
describe('npm run chaos (short)', () => {
  it('kills the worker during a processor call: no double charge, nothing lost or stuck, no 5xx left to a client', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, '..', '..', 'chaos', 'run.ts')],
      {
        cwd: path.join(__dirname, '..', '..', '..'),
        env: {
          ...process.env,
          DATABASE_URL: process.env.TEST_DATABASE_URL,
          TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
          CHAOS_DATA_DIR: path.join(process.env.TEST_RUN_DIR!, `chaos-${process.pid}`),
          CHAOS_PAYMENTS: '50',
          CHAOS_CLIENTS: '4',
          CHAOS_WORKER_KILLS: '1',
          CHAOS_API_KILLS: '0',
          CHAOS_SANDBOX_KILLS: '0',
          CHAOS_HOLD_SHARE: '0.2',
        },
        timeout: 280_000,
      },
    );
    expect(stdout).toMatch(
      /^chaos PASSED: 50 payments from 4 clients; kill -9: worker ×1 \(1 during a processor call\), API ×0, sandbox ×0; /,
    );
    expect(stdout).toMatch(/double charges 0, lost 0, stuck 0, mismatches 0, final 5xx 0;/);
  }, 300_000);
});
