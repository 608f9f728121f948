import type { Activities } from '../../../activities';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { eventOutboxWorkflow } from '../../../workflows/events/outbox';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { recordDir, recordHistory } from '../../replay/historyRecorder';

describe('event outbox sweeper (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('sweeps every 30 seconds and survives a failing sweep', async () => {
    const sweepTimes: number[] = [];
    let calls = 0;
    const activities: Partial<Activities> = {
      dispatchUndispatchedEvents: async () => {
        calls += 1;
        sweepTimes.push(Number(await env.currentTimeMs()));
        // The second sweep fails on all 3 of its attempts: the sweeper must go on regardless.
        if (calls >= 2 && calls <= 4) throw new Error('database unavailable');
        return 0;
      },
    };
    await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(eventOutboxWorkflow, {
        workflowId: `outbox-${Date.now()}`,
        taskQueue,
      });
      await env.sleep('10 minutes');
      if (recordDir) await recordHistory(handle, 'eventOutboxWorkflow', recordDir);
      await handle.terminate('test over');
    });
    // 20 sweeps in 10 minutes, plus 2 retries of the failed one; sweeps after it still happen.
    expect(calls).toBeGreaterThanOrEqual(20);
    expect(calls).toBeLessThanOrEqual(23);
    expect(sweepTimes.at(-1)! - sweepTimes[4]!).toBeGreaterThan(5 * 60_000);
    const firstGap = sweepTimes[1]! - sweepTimes[0]!;
    expect(firstGap).toBeGreaterThanOrEqual(29_000);
  });
});
