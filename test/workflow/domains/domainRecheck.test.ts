import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Activities } from '../../../activities';
import { domainRecheckWorkflow } from '../../../workflows/domains/recheck';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { recordDir, recordHistory } from '../../replay/historyRecorder';

describe('custom domain rechecker (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('checks every hour and survives a failing round', async () => {
    const roundTimes: number[] = [];
    let calls = 0;
    const activities: Partial<Activities> = {
      recheckDomains: async () => {
        calls += 1;
        roundTimes.push(Number(await env.currentTimeMs()));
        // The second round fails on all 3 of its attempts: the rechecker must go on regardless.
        if (calls >= 2 && calls <= 4) throw new Error('database unavailable');
        return { checked: 1, verified: 1, failed: 0, unanswered: 0 };
      },
    };
    const start = Number(await env.currentTimeMs());
    await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(domainRecheckWorkflow, {
        workflowId: `domain-recheck-${Date.now()}`,
        taskQueue,
      });
      await env.sleep('6 hours');
      if (recordDir) await recordHistory(handle, 'domainRecheckWorkflow', recordDir);
      await handle.terminate('test over');
    });
    // Rounds at 1, 2, 3, 4, 5 and 6 hours, plus the 2 retries of the failed one; none at start.
    expect(calls).toBeGreaterThanOrEqual(7);
    expect(calls).toBeLessThanOrEqual(8);
    expect(roundTimes[0]! - start).toBeGreaterThanOrEqual(3_599_000);
    const lastGap = roundTimes.at(-1)! - roundTimes.at(-2)!;
    expect(lastGap).toBeGreaterThanOrEqual(3_599_000);
  });
});
