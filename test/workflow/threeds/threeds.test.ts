import type { Activities } from '../../../activities';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ThreeDsValues } from '../../../src/processors/types';
import type { StartAuthenticationInput, ThreeDsChallenge, ThreeDsFinal } from '../../../src/threeds/workflowTypes';
import { awaitOutcomeUpdate, paymentWorkflow } from '../../../workflows/payments/payment';
import { threeDsAuthenticationWorkflow } from '../../../workflows/threeds/authentication';
import { threeDsChallengeReturnedUpdate } from '../../../workflows/threeds/messages';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { cascadeFlow, mockPaymentActivities, paymentInput, type MockAnswer } from '../payments/paymentMocks';

const values: ThreeDsValues = {
  eci: '05',
  authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
  transStatus: 'Y',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  acsTransID: '13c701a3-5a88-4c45-89e9-ef65e50a8bf9',
  threeDSServerTransID: '6afa6072-9412-446b-9673-2f98b3ee98a2',
  messageVersion: '2.2.0',
  type: 'customer',
};
const challengeUrl = 'http://sandbox.test/threeds/challenge/13c701a3';
const minute = 60_000;

/**
 * Mocked 3DS activities: the first answer (challenge or frictionless), what the 3DS server says
 * once the browser is back (Y or N), and a timeout that fails the session. Calls are counted.
 */
function mockThreeDs(first: 'challenge' | 'frictionless', afterReturn: 'Y' | 'N' = 'Y') {
  const calls = { plan: 0, start: 0, check: 0, expire: 0 };
  const final = (sessionId: string, transStatus: 'Y' | 'N', failureReason: string | null = null): ThreeDsFinal => ({
    kind: 'final',
    sessionId,
    status: transStatus === 'Y' && !failureReason ? 'authenticated' : 'failed',
    transStatus,
    values: transStatus === 'Y' && !failureReason ? values : null,
    failureReason,
  });
  const activities: Partial<Activities> = {
    async planPaymentThreeDs() {
      calls.plan++;
      return { kind: 'authenticate' as const, sessionId: '3ds_wftest' };
    },
    async startThreeDsAuthentication(input: StartAuthenticationInput): Promise<ThreeDsFinal | ThreeDsChallenge> {
      calls.start++;
      return first === 'challenge'
        ? { kind: 'challenge', sessionId: input.sessionId, challengeUrl }
        : final(input.sessionId, 'Y');
    },
    async checkThreeDsChallenge(input: { sessionId: string }) {
      calls.check++;
      return final(input.sessionId, afterReturn, afterReturn === 'N' ? 'transStatus N' : null);
    },
    async expireThreeDsChallenge(input: { sessionId: string }) {
      calls.expire++;
      return { ...final(input.sessionId, 'N', 'challenge_timeout'), transStatus: 'C' };
    },
  };
  return { calls, activities };
}

describe('3-D Secure as a durable step (time skipping, mocked activities)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  function setUp(
    first: 'challenge' | 'frictionless',
    answers: Record<string, MockAnswer>,
    afterReturn: 'Y' | 'N' = 'Y',
  ) {
    const payment = mockPaymentActivities({
      flow: { ...cascadeFlow(Object.keys(answers)), threeDsEnabled: true },
      answers,
      processorsEnable3DS: true,
    });
    const threeDs = mockThreeDs(first, afterReturn);
    return { payment, threeDs, activities: { ...payment.activities, ...threeDs.activities } };
  }

  it('challenge → success: answers requires_action, waits for the return, then charges; the cascade reuses the result', async () => {
    const { payment, threeDs, activities } = setUp('challenge', { proc_a: 'soft', proc_b: 'approve' });
    const input = paymentInput();
    const { early, returned, outcome } = await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(paymentWorkflow, {
        workflowId: input.paymentId,
        taskQueue,
        args: [input],
      });
      const early = await handle.executeUpdate(awaitOutcomeUpdate, { args: [{ waitMs: 10_000 }] });
      const returned = await handle.executeUpdate(threeDsChallengeReturnedUpdate);
      return { early, returned, outcome: await handle.result() };
    });
    expect(early).toMatchObject({ kind: 'payment', status: 'requires_action', redirectUrl: challengeUrl });
    expect(returned).toMatchObject({ kind: 'final', status: 'authenticated', transStatus: 'Y' });
    expect(outcome).toMatchObject({ status: 'succeeded' });
    // One authentication, one challenge, two processor attempts carrying the same values.
    expect(threeDs.calls).toEqual({ plan: 1, start: 1, check: 1, expire: 0 });
    expect(payment.authorizeCalls.map((call) => [call.processorId, call.threeDs])).toEqual([
      ['proc_a', values],
      ['proc_b', values],
    ]);
  });

  it('challenge → failed at the ACS: the payment is declined at the 3DS step, no processor called', async () => {
    const { payment, activities } = setUp('challenge', { proc_a: 'approve' }, 'N');
    const input = paymentInput();
    const outcome = await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(paymentWorkflow, {
        workflowId: input.paymentId,
        taskQueue,
        args: [input],
      });
      await handle.executeUpdate(awaitOutcomeUpdate, { args: [{ waitMs: 10_000 }] });
      await handle.executeUpdate(threeDsChallengeReturnedUpdate);
      return handle.result();
    });
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'threeds_authentication_failed' });
    expect(payment.authorizeCalls).toHaveLength(0);
  });

  it('challenge → never completed: still waiting at 14 simulated minutes, fails at 15, in a few real seconds, with no charge', async () => {
    const { payment, threeDs, activities } = setUp('challenge', { proc_a: 'approve' });
    const input = paymentInput();
    const startedAt = Date.now();
    const { early, outcome, waitingAt14, simulated } = await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(paymentWorkflow, {
        workflowId: input.paymentId,
        taskQueue,
        args: [input],
      });
      const early = await handle.executeUpdate(awaitOutcomeUpdate, { args: [{ waitMs: 10_000 }] });
      const challengedAt = Number(await env.currentTimeMs());
      await env.sleep(14 * minute);
      const waitingAt14 = {
        status: (await handle.describe()).status.name,
        expired: threeDs.calls.expire,
        finalized: payment.finalized.length,
      };
      const outcome = await handle.result();
      const { startTime, closeTime } = await handle.describe();
      return {
        early,
        outcome,
        waitingAt14,
        simulated: {
          challengeToCloseMs: closeTime!.getTime() - challengedAt,
          runMs: closeTime!.getTime() - startTime.getTime(),
        },
      };
    });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(early).toMatchObject({ status: 'requires_action' });
    expect(waitingAt14).toEqual({ status: 'RUNNING', expired: 0, finalized: 0 });
    // The timeout is 15 minutes of workflow time: not less (it was still waiting above), not much more.
    expect(simulated.challengeToCloseMs).toBeGreaterThanOrEqual(15 * minute - 1_000);
    expect(simulated.runMs).toBeGreaterThanOrEqual(15 * minute);
    expect(simulated.runMs).toBeLessThan(16 * minute);
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'threeds_challenge_timeout' });
    expect(threeDs.calls).toMatchObject({ start: 1, check: 0, expire: 1 });
    expect(payment.authorizeCalls).toHaveLength(0);
    expect(payment.finalized).toEqual([
      expect.objectContaining({ status: 'failed', declineCode: 'threeds_challenge_timeout' }),
    ]);
  });

  it('frictionless: no requires_action, the values go to the processor', async () => {
    const { payment, threeDs, activities } = setUp('frictionless', { proc_a: 'approve' });
    const input = paymentInput();
    const outcome = await withWorker(env, activities, async (taskQueue) =>
      env.client.workflow.execute(paymentWorkflow, { workflowId: input.paymentId, taskQueue, args: [input] }),
    );
    expect(outcome).toMatchObject({ status: 'succeeded', redirectUrl: null });
    expect(threeDs.calls).toEqual({ plan: 1, start: 1, check: 0, expire: 0 });
    expect(payment.authorizeCalls.map((call) => call.threeDs)).toEqual([values]);
  });

  it('the standalone authentication workflow fails its session when the challenge times out, after 15 simulated minutes', async () => {
    const { calls, activities } = mockThreeDs('challenge');
    const { final, runMs } = await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(threeDsAuthenticationWorkflow, {
        workflowId: `3ds_wf${Date.now()}`,
        taskQueue,
        args: [
          { sessionId: '3ds_wftest', workflowId: '3ds_wftest', amount: 100, currency: 'EUR', deviceChannel: 'browser' },
        ],
      });
      const final = await handle.result();
      const { startTime, closeTime } = await handle.describe();
      return { final, runMs: closeTime!.getTime() - startTime.getTime() };
    });
    expect(runMs).toBeGreaterThanOrEqual(15 * minute);
    expect(runMs).toBeLessThan(16 * minute);
    expect(final).toMatchObject({ status: 'failed', failureReason: 'challenge_timeout' });
    expect(calls).toMatchObject({ start: 1, expire: 1, check: 0 });
  });
});
