import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { until } from '../../helpers/until';
import type { Activities } from '../../../activities';
import type { FollowUpLookupInput } from '../../../activities/payments/confirmation';
import type { FollowUpCall, FollowUpOutcome, ProcessorFollowUp } from '../../../src/payments/followUpTypes';
import { processorConfirmationSignal } from '../../../workflows/payments/messages';
import { refundWorkflow } from '../../../workflows/payments/refund';
import { paymentSettlementWorkflow } from '../../../workflows/payments/settlement';
import { createTimeSkippingEnv, step, withWorker } from '../../helpers/timeSkipping';

/**
 * A follow-up the processor answered `pending` waits durably: the webhook route's signal ends the
 * wait at once; without one, the workflow asks (lookUpFollowUp) after each long wait, at most 7
 * times, and records what the lookup says.
 */
const hour = 60 * 60 * 1000;
const call: FollowUpCall = {
  processorId: 'proc_a',
  processorReference: 'psp_1',
  amount: 500,
  currency: 'EUR',
  idempotencyKey: 're_1',
};

function mocks(lookups: ProcessorFollowUp[]) {
  const finished: ProcessorFollowUp[] = [];
  const lookedUp: FollowUpLookupInput[] = [];
  const done = (result: ProcessorFollowUp, refund: boolean): FollowUpOutcome => ({
    kind: 'done',
    paymentId: 'pay_1',
    paymentStatus: result.outcome === 'succeeded' ? (refund ? 'refunded' : 'succeeded') : 'succeeded',
    succeeded: result.outcome !== 'failed',
    ...(result.outcome === 'pending' ? { pending: true } : {}),
    code: result.outcome === 'failed' ? result.code : null,
    message: null,
    ...(refund ? { refundId: 're_1' } : {}),
    eventIds: [],
  });
  const activities: Partial<Activities> = {
    reserveRefund: async () => call,
    refundAtProcessor: async () => ({ outcome: 'pending', processorReference: 'mod_1' }),
    finishRefund: async (input) => {
      finished.push(input.result);
      return done(input.result, true);
    },
    beginSettlement: async () => ({ ...call, idempotencyKey: 'pay_1:capture' }),
    settleAtProcessor: async () => ({ outcome: 'pending', processorReference: 'mod_2' }),
    finishSettlement: async (input) => {
      finished.push(input.result);
      return done(input.result, false);
    },
    lookUpFollowUp: async (input) => {
      lookedUp.push(input);
      return lookups.shift() ?? { outcome: 'pending', processorReference: call.processorReference };
    },
    dispatchEvents: async () => ({ started: 0 }),
  };
  return { activities, finished, lookedUp };
}

describe('follow-up workflows waiting for the processor (time skipping, mocked activities)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  const refundInput = { refundId: 're_1', paymentId: 'pay_1', accountId: 'acc_1', mode: 'test' as const };

  it('a pending refund ends with the confirmation the webhook route signals; nothing is looked up', async () => {
    const m = mocks([]);
    const outcome = await withWorker(env, m.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(refundWorkflow, {
        workflowId: `re_signal_${Date.now()}`,
        taskQueue,
        args: [{ ...refundInput, confirmationWaitMs: 24 * hour }],
      });
      await step(
        'pending recorded',
        waitFor(() => m.finished.length === 1),
      );
      await handle.signal(processorConfirmationSignal, {
        outcome: 'failed',
        code: 'refund_failed',
        message: 'refused by the issuer',
      });
      return step('refund ended', handle.result());
    });
    expect(m.finished.map((result) => result.outcome)).toEqual(['pending', 'failed']);
    expect(outcome).toMatchObject({ kind: 'done', succeeded: false, code: 'refund_failed' });
    expect(m.lookedUp).toEqual([]);
  });

  it('without a webhook a refund asks after each wait and records what the lookup finally says', async () => {
    const m = mocks([
      { outcome: 'pending', processorReference: 'psp_1' },
      { outcome: 'failed', code: 'not_captured', message: 'The processor reports the payment voided' },
    ]);
    const started = Date.now();
    const outcome = await withWorker(env, m.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(refundWorkflow, {
        workflowId: `re_lookup_${Date.now()}`,
        taskQueue,
        args: [{ ...refundInput, confirmationWaitMs: 24 * hour }],
      });
      return step('refund ended', handle.result());
    });
    expect(m.lookedUp).toHaveLength(2);
    expect(m.lookedUp[0]).toMatchObject({ operation: 'refund', refundId: 're_1', call });
    expect(m.finished.map((result) => result.outcome)).toEqual(['pending', 'failed']);
    expect(outcome).toMatchObject({ succeeded: false, code: 'not_captured' });
    // Two waits of a day were skipped, not slept.
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('a capture left pending after every lookup ends pending (the row waits for a late webhook)', async () => {
    const m = mocks([]);
    const outcome = await withWorker(env, m.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(paymentSettlementWorkflow, {
        workflowId: `capture_pay_1_${Date.now()}`,
        taskQueue,
        args: [
          { operation: 'capture', paymentId: 'pay_1', accountId: 'acc_1', mode: 'test', confirmationWaitMs: hour },
        ],
      });
      return step('capture ended', handle.result());
    });
    expect(m.lookedUp).toHaveLength(7);
    expect(m.lookedUp[0]).toMatchObject({ operation: 'capture', settlementOwner: expect.stringMatching(/^capture_/) });
    expect(m.finished.map((result) => result.outcome)).toEqual(['pending']);
    expect(outcome).toMatchObject({ kind: 'done', pending: true });
  });
});

async function waitFor(predicate: () => boolean): Promise<void> {
  await until(() => (predicate() ? true : undefined));
}
