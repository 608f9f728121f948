import type { Activities } from '../../../activities';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { checkoutExpiryWorkflow } from '../../../workflows/commerce/checkoutExpiry';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { recordDir, recordHistory } from '../../replay/historyRecorder';

describe('checkout expiry sweeper (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('sweeps every minute, dispatches what each sweep expired, and outlives a failing sweep', async () => {
    let sweeps = 0;
    const dispatched: string[][] = [];
    const activities: Partial<Activities> = {
      expireLapsedCheckoutSessions: async () => {
        sweeps += 1;
        // The second sweep fails on all three tries of its retry policy.
        if (sweeps >= 2 && sweeps <= 4) throw new Error('database unavailable');
        return sweeps === 5 ? ['evt_a', 'evt_b'] : [];
      },
      dispatchEvents: async (eventIds: string[]) => {
        dispatched.push(eventIds);
        return { started: 0 };
      },
    };
    await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(checkoutExpiryWorkflow, {
        workflowId: `checkout-expiry-${Date.now()}`,
        taskQueue,
      });
      await env.sleep('10 minutes');
      if (recordDir) await recordHistory(handle, 'checkoutExpiryWorkflow', recordDir);
      await handle.terminate('test over');
    });
    // 10 one-minute sweeps, the failed one tried 3 times: 12 calls.
    expect(sweeps).toBeGreaterThanOrEqual(11);
    expect(sweeps).toBeLessThanOrEqual(13);
    expect(dispatched).toEqual([['evt_a', 'evt_b']]);
  });
});
