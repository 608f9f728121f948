import type { Activities } from '../../../activities';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { maintenanceWorkflow } from '../../../workflows/maintenance/idempotencySweep';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { recordDir, recordHistory } from '../../replay/historyRecorder';

describe('maintenance workflow (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('sweeps hourly through a simulated day in at most 10 real seconds', async () => {
    let sweeps = 0;
    const activities: Partial<Activities> = {
      purgeExpiredIdempotencyRecords: async () => {
        sweeps += 1;
        return 0;
      },
    };
    let realSleepMs = Number.POSITIVE_INFINITY;
    await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(maintenanceWorkflow, {
        workflowId: `maintenance-${Date.now()}`,
        taskQueue,
        args: [0],
      });
      const simulatedStart = (await env.currentTimeMs()) as unknown as number;
      // Only the simulated day is timed: bundling workflow code and starting the worker are not.
      const realStart = Date.now();
      await env.sleep('1 day');
      realSleepMs = Date.now() - realStart;
      const simulatedElapsed = Number(await env.currentTimeMs()) - Number(simulatedStart);
      expect(simulatedElapsed).toBeGreaterThanOrEqual(24 * 3600 * 1000);
      if (recordDir) await recordHistory(handle, 'maintenanceWorkflow', recordDir);
      await handle.terminate('test over');
    });
    expect(sweeps).toBeGreaterThanOrEqual(23);
    expect(sweeps).toBeLessThanOrEqual(25);
    expect(realSleepMs).toBeLessThanOrEqual(10_000);
  });
});
