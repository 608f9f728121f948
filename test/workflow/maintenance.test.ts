import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { maintenanceWorkflow } from '../../workflows/maintenance';
import { createTimeSkippingEnv, withWorker } from '../helpers/timeSkipping';

describe('maintenance workflow (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('sweeps hourly through a simulated day in a few real seconds', async () => {
    let sweeps = 0;
    const activities = {
      purgeExpiredIdempotencyRecords: async () => {
        sweeps += 1;
        return 0;
      },
    };
    const realStart = Date.now();
    await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(maintenanceWorkflow, {
        workflowId: `maintenance-${Date.now()}`,
        taskQueue,
        args: [0],
      });
      const simulatedStart = (await env.currentTimeMs()) as unknown as number;
      await env.sleep('1 day');
      const simulatedElapsed = Number(await env.currentTimeMs()) - Number(simulatedStart);
      expect(simulatedElapsed).toBeGreaterThanOrEqual(24 * 3600 * 1000);
      await handle.terminate('test over');
    });
    expect(sweeps).toBeGreaterThanOrEqual(23);
    expect(sweeps).toBeLessThanOrEqual(25);
    expect(Date.now() - realStart).toBeLessThan(30_000);
  });
});
