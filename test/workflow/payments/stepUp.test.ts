import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import type {
  AuthorizeAttemptInput,
  AuthorizeAttemptResult,
  StepUpCheck,
  StepUpCheckInput,
} from '../../../src/payments/workflowTypes';
import { awaitOutcomeUpdate, paymentStateQuery, paymentWorkflow } from '../../../workflows/payments/payment';
import { stepUpReturnedUpdate } from '../../../workflows/payments/messages';
import { createTimeSkippingEnv, executeUpdateOnce, untilQuiescent, withWorker } from '../../helpers/timeSkipping';
import { cascadeFlow, mockPaymentActivities, paymentInput } from './paymentMocks';

/**
 * The step-up wait of the payment workflow (time skipping, mocked activities): proc_a answers with
 * its authentication page, proc_b would approve. What ends the wait, what the processor is asked,
 * and that the shopper's result is never cascaded.
 */
type Verdict = 'pending' | 'approve' | 'decline';

function stepUpMocks(options: {
  verdicts: Verdict[];
  atTimeout?: Verdict;
  timeoutMinutes?: number;
  cancel?: 'refuse';
}) {
  const flow = {
    ...cascadeFlow(['proc_a', 'proc_b']),
    ...(options.timeoutMinutes ? { authenticationTimeoutMinutes: options.timeoutMinutes } : {}),
  };
  const base = mockPaymentActivities({ flow, answers: { proc_b: 'approve' } });
  const checks: StepUpCheckInput[] = [];
  const abandons: StepUpCheckInput[] = [];
  const attemptOf = (input: StepUpCheckInput, verdict: Exclude<Verdict, 'pending'>): AuthorizeAttemptResult => ({
    attemptNumber: input.attemptNumber,
    processorId: input.processorId,
    outcome: verdict === 'approve' ? 'approved' : 'declined',
    errorCode: verdict === 'approve' ? null : 'authentication_failed',
    category: verdict === 'approve' ? null : 'hard_decline',
    message: verdict === 'approve' ? null : 'The shopper failed authentication',
    processorReference: input.processorReference,
    captured: true,
    dispute: null,
  });
  const answer = (input: StepUpCheckInput, verdict: Verdict): StepUpCheck =>
    verdict === 'pending' ? { settled: false } : { settled: true, attempt: attemptOf(input, verdict) };
  const activities = {
    ...base.activities,
    async authorizeAttempt(input: AuthorizeAttemptInput): Promise<AuthorizeAttemptResult> {
      if (input.processorId !== 'proc_a') return base.activities.authorizeAttempt!(input);
      base.authorizeCalls.push(input);
      const asked = {
        attemptNumber: input.attemptNumber,
        processorId: input.processorId,
        errorCode: null,
        category: null,
        captured: false,
        dispute: null,
      };
      // Without a way to wait for the shopper, the processor's demand is a decline (as the adapters answer).
      if (!input.stepUp)
        return {
          ...asked,
          outcome: 'requires_3ds',
          errorCode: 'authentication_required',
          category: 'soft_decline',
          message: 'asks',
          processorReference: null,
        };
      return {
        ...asked,
        outcome: 'requires_action',
        message: 'waiting',
        processorReference: 'pi_123',
        stepUp: {
          redirectUrl: 'https://engine.example/start',
          action: { url: 'https://acs.example/page', method: 'GET' },
        },
      };
    },
    async checkStepUp(input: StepUpCheckInput): Promise<StepUpCheck> {
      checks.push(input);
      return answer(input, options.verdicts[checks.length - 1] ?? 'pending');
    },
    async abandonStepUp(input: StepUpCheckInput): Promise<StepUpCheck> {
      abandons.push(input);
      if (options.cancel === 'refuse') throw ApplicationFailure.nonRetryable('cancel refused', 'StepUpCancelRefused');
      const late = options.atTimeout ?? 'pending';
      if (late !== 'pending') return answer(input, late);
      return {
        settled: true,
        attempt: {
          ...attemptOf(input, 'decline'),
          errorCode: 'authentication_timeout',
          category: 'soft_decline',
          message: 'timed out',
          captured: false,
        },
      };
    },
  };
  return { ...base, activities, checks, abandons };
}

/** The durations (seconds) of the timers the workflow started. */
async function timersOf(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const seconds = event.timerStartedEventAttributes?.startToFireTimeout?.seconds;
    return seconds == null ? [] : [Number(seconds)];
  });
}

describe('payment step-up wait (time skipping, mocked activities)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  async function start(taskQueue: string, input = paymentInput()) {
    const handle = await env.client.workflow.start(paymentWorkflow, {
      workflowId: input.paymentId,
      taskQueue,
      args: [input],
    });
    const first = await executeUpdateOnce(handle, awaitOutcomeUpdate, [{ waitMs: 60_000 }]);
    return { handle, first };
  }

  it('answers requires_action with the start link, then settles on the return: one check, succeeded, proc_b never called', async () => {
    const mocks = stepUpMocks({ verdicts: ['approve'] });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const { handle, first } = await start(taskQueue);
      expect(first).toMatchObject({ status: 'requires_action', redirectUrl: 'https://engine.example/start' });
      expect(await handle.query(paymentStateQuery)).toMatchObject({
        step: 'authenticating',
        stepUp: { attemptNumber: 1, action: { url: 'https://acs.example/page' } },
      });
      await untilQuiescent(handle);
      expect(await executeUpdateOnce(handle, stepUpReturnedUpdate, [{ attemptNumber: 1 }])).toEqual({ settled: true });
      expect(await handle.result()).toMatchObject({ status: 'succeeded' });
    });
    expect(mocks.checks).toHaveLength(1);
    expect(mocks.abandons).toHaveLength(0);
    expect(mocks.authorizeCalls.map((call) => call.processorId)).toEqual(['proc_a']);
    expect(mocks.authorizeCalls[0]!.stepUp).toEqual({ returnBaseUrl: null });
    expect(mocks.finalized).toEqual([expect.objectContaining({ status: 'succeeded', processorReference: 'pi_123' })]);
  });

  it('a return before the processor decided keeps waiting; the next one settles', async () => {
    const mocks = stepUpMocks({ verdicts: ['pending', 'approve'] });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const { handle } = await start(taskQueue);
      await untilQuiescent(handle);
      expect(await executeUpdateOnce(handle, stepUpReturnedUpdate, [{ attemptNumber: 1 }])).toEqual({ settled: false });
      expect(await executeUpdateOnce(handle, stepUpReturnedUpdate, [{ attemptNumber: 1 }])).toEqual({ settled: true });
      expect(await handle.result()).toMatchObject({ status: 'succeeded' });
    });
    expect(mocks.checks).toHaveLength(2);
  });

  it('a failed authentication fails the payment with its code and is not cascaded to the next processor', async () => {
    const mocks = stepUpMocks({ verdicts: ['decline'] });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const { handle } = await start(taskQueue);
      await untilQuiescent(handle);
      await executeUpdateOnce(handle, stepUpReturnedUpdate, [{ attemptNumber: 1 }]);
      expect(await handle.result()).toMatchObject({ status: 'failed', declineCode: 'authentication_failed' });
    });
    expect(mocks.authorizeCalls.map((call) => call.processorId)).toEqual(['proc_a']);
  });

  it('nobody returns: after the flow default of 15 minutes it cancels at the processor and fails authentication_timeout', async () => {
    const mocks = stepUpMocks({ verdicts: [] });
    const timers = await withWorker(env, mocks.activities, async (taskQueue) => {
      const { handle } = await start(taskQueue);
      expect(await handle.result()).toMatchObject({ status: 'failed', declineCode: 'authentication_timeout' });
      return timersOf(handle);
    });
    // The only timer: the API's wait for the first answer needs none, requires_action is answered
    // in the first workflow task, with the authorization (a local activity).
    expect(timers).toEqual([15 * 60]);
    expect(mocks.abandons).toHaveLength(1);
    expect(mocks.checks).toHaveLength(0);
    expect(mocks.authorizeCalls.map((call) => call.processorId)).toEqual(['proc_a']);
  });

  it("the flow's authenticationTimeoutMinutes sets the wait; an approval that arrived by then still counts", async () => {
    const mocks = stepUpMocks({ verdicts: [], atTimeout: 'approve', timeoutMinutes: 3 });
    const timers = await withWorker(env, mocks.activities, async (taskQueue) => {
      const { handle } = await start(taskQueue);
      expect(await handle.result()).toMatchObject({ status: 'succeeded' });
      return timersOf(handle);
    });
    expect(timers).toEqual([3 * 60]);
    expect(mocks.abandons).toHaveLength(1);
  });

  it('a cancel the processor never confirms leaves the payment failed for review, never cascaded', async () => {
    const mocks = stepUpMocks({ verdicts: [], cancel: 'refuse', timeoutMinutes: 1 });
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const { handle } = await start(taskQueue);
      expect(await handle.result()).toMatchObject({ status: 'failed', declineCode: 'processor_outcome_unknown' });
    });
    expect(mocks.finalized).toEqual([
      expect.objectContaining({ review: expect.objectContaining({ processorId: 'proc_a' }) }),
    ]);
    expect(mocks.authorizeCalls.map((call) => call.processorId)).toEqual(['proc_a']);
  });

  it('a merchant-initiated payment is not offered step-up: the demand is a decline', async () => {
    const mocks = stepUpMocks({ verdicts: [] });
    const outcome = await withWorker(env, mocks.activities, async (taskQueue) => {
      const input = paymentInput({ initiatedBy: 'merchant' });
      const handle = await env.client.workflow.start(paymentWorkflow, {
        workflowId: input.paymentId,
        taskQueue,
        args: [input],
      });
      return handle.result();
    });
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'authentication_required' });
    expect(mocks.authorizeCalls[0]!.stepUp).toBeUndefined();
  });
});
