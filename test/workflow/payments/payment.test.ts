import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { awaitOutcomeUpdate, paymentStateQuery, paymentWorkflow } from '../../../workflows/payments/payment';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { cascadeFlow, mockPaymentActivities, paymentInput } from './paymentMocks';

describe('payment workflow (time skipping, mocked activities)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  async function run(mocks: ReturnType<typeof mockPaymentActivities>, input = paymentInput()) {
    return withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(paymentWorkflow, {
        workflowId: input.paymentId,
        taskQueue,
        args: [input],
      });
      const outcome = await handle.result();
      const state = await handle.query(paymentStateQuery);
      return { outcome, state };
    });
  }

  it('cascades A (technical, retries spent) → B (soft decline) → C (approves): 3 attempts', async () => {
    const mocks = mockPaymentActivities({
      flow: cascadeFlow(['proc_a', 'proc_b', 'proc_c']),
      answers: { proc_a: 'technical', proc_b: 'soft', proc_c: 'approve' },
    });
    const { outcome, state } = await run(mocks);
    expect(outcome).toMatchObject({ kind: 'payment', status: 'succeeded' });
    // A was retried by the activity policy (4 tries), all with attempt number 1 = one idempotency key.
    expect(mocks.authorizeCalls.map((c) => `${c.processorId}#${c.attemptNumber}`)).toEqual([
      'proc_a#1',
      'proc_a#1',
      'proc_a#1',
      'proc_a#1',
      'proc_b#2',
      'proc_c#3',
    ]);
    expect([...mocks.attempts.values()].map((a) => [a.attemptNumber, a.processorId, a.outcome, a.category])).toEqual([
      [1, 'proc_a', 'error', 'technical'],
      [2, 'proc_b', 'declined', 'soft_decline'],
      [3, 'proc_c', 'approved', null],
    ]);
    expect(state.attempts).toHaveLength(3);
    expect(state.step).toBe('done');
    expect(mocks.finalized).toEqual([
      expect.objectContaining({
        status: 'succeeded',
        processorId: 'proc_c',
        processorReference: expect.stringContaining(':3'),
      }),
    ]);
    // An outage refuses calls without processing them: nothing to reverse.
    expect(mocks.reverseCalls).toHaveLength(0);
  });

  it('a free checkout (amount 0) calls no processor and records a captured succeeded payment; a block rule still stops it', async () => {
    const mocks = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: { proc_a: 'approve' } });
    const { outcome, state } = await run(
      mocks,
      paymentInput({ amount: 0, paymentInstrumentId: null, paymentFlowId: null, checkoutSessionId: 'ch_free' }),
    );
    expect(outcome).toMatchObject({ kind: 'payment', status: 'succeeded', amount: 0 });
    expect(mocks.calls).toEqual([]);
    expect(state.attempts).toEqual([]);
    expect(mocks.finalized).toEqual([
      expect.objectContaining({ status: 'succeeded', processorId: null, captured: true, declineCode: null }),
    ]);

    const blocked = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: {}, blocked: true });
    const stopped = await run(
      blocked,
      paymentInput({ amount: 0, paymentInstrumentId: null, paymentFlowId: null, checkoutSessionId: 'ch_free' }),
    );
    expect(stopped.outcome).toMatchObject({ status: 'failed', declineCode: 'blocked_by_rule' });
    expect(blocked.calls).toEqual([]);
  });

  it('reverses a processor that never answered (but charged) by its idempotency key before cascading: one net charge', async () => {
    const mocks = mockPaymentActivities({
      flow: cascadeFlow(['proc_a', 'proc_b']),
      answers: { proc_a: 'charge_silently', proc_b: 'approve' },
    });
    const input = paymentInput();
    const { outcome } = await run(mocks, input);
    expect(outcome).toMatchObject({ status: 'succeeded' });
    // Every retry of A went out under the one key; the reversal comes before B is asked.
    expect(mocks.calls).toEqual([
      'authorize proc_a#1',
      'authorize proc_a#1',
      'authorize proc_a#1',
      'authorize proc_a#1',
      'reverse proc_a#1',
      'authorize proc_b#2',
    ]);
    expect([...mocks.ledger.values()]).toEqual([
      { idempotencyKey: `${input.paymentId}:2`, processorId: 'proc_b', amount: 1999 },
    ]);
    expect(mocks.attempts.get(`${input.paymentId}:1`)).toMatchObject({
      outcome: 'error',
      errorCode: 'timeout',
      category: 'technical',
      processorReference: `ref_${input.paymentId}:1`,
      message: expect.stringContaining('reversed by idempotency key (1999 reversed)'),
    });
  });

  it('reverses a silent attempt even when no processor follows it', async () => {
    const mocks = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: { proc_a: 'charge_silently' } });
    const { outcome } = await run(mocks);
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'timeout' });
    expect(mocks.reverseCalls.map((c) => `${c.processorId}#${c.attemptNumber}`)).toEqual(['proc_a#1']);
    expect(mocks.ledger.size).toBe(0);
    expect(mocks.finalized[0]).toMatchObject({ declineCategory: 'technical', review: null });
  });

  it.each(['unreachable', 'refuse'] as const)(
    'does not cascade when the reversal is not confirmed (%s): processor_outcome_unknown, needs review',
    async (reversal) => {
      const mocks = mockPaymentActivities({
        flow: cascadeFlow(['proc_a', 'proc_b']),
        answers: { proc_a: 'silent', proc_b: 'approve' },
        reversals: { proc_a: reversal },
      });
      const { outcome, state } = await run(mocks);
      expect(outcome).toMatchObject({ status: 'failed', declineCode: 'processor_outcome_unknown' });
      expect(mocks.authorizeCalls.every((c) => c.processorId === 'proc_a')).toBe(true);
      // An unreachable processor gets the reversal's whole retry budget; a refusal is an answer.
      expect(mocks.reverseCalls).toHaveLength(reversal === 'unreachable' ? 6 : 1);
      expect(mocks.finalized).toEqual([
        expect.objectContaining({
          status: 'failed',
          declineCode: 'processor_outcome_unknown',
          declineCategory: 'technical',
          processorId: 'proc_a',
          review: { reason: 'reversal_unconfirmed', processorId: 'proc_a', attemptNumber: 1 },
        }),
      ]);
      expect(state.status).toBe('needs_review');
      expect(state.attempts[0]!.message).toContain('Needs review');
    },
  );

  it('answers what was recorded when finalize finds the payment closed already (its first workflow task done again)', async () => {
    const mocks = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: { proc_a: 'hard' } });
    const closedAlready = {
      ...mocks,
      activities: {
        ...mocks.activities,
        finalizePayment: async () => ({
          eventIds: [],
          order: null,
          recorded: { status: 'succeeded' as const, declineCode: null, declineMessage: null },
        }),
      },
    };
    const { outcome } = await run(closedAlready);
    expect(outcome).toMatchObject({ kind: 'payment', status: 'succeeded', declineCode: null, declineMessage: null });
  });

  it('stops at once on a hard decline', async () => {
    const mocks = mockPaymentActivities({
      flow: cascadeFlow(['proc_a', 'proc_b']),
      answers: { proc_a: 'hard', proc_b: 'approve' },
    });
    const { outcome } = await run(mocks);
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'card_declined' });
    expect(mocks.authorizeCalls.map((c) => c.processorId)).toEqual(['proc_a']);
    expect(mocks.finalized[0]).toMatchObject({ status: 'failed', declineCategory: 'hard_decline' });
  });

  it('never calls a processor disabled in the flow', async () => {
    const flow = cascadeFlow(['proc_a', 'proc_b', 'proc_c']);
    flow.processorConfigs[1]!.disabled = true;
    const mocks = mockPaymentActivities({ flow, answers: { proc_a: 'soft', proc_b: 'approve', proc_c: 'approve' } });
    const { outcome } = await run(mocks);
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(mocks.authorizeCalls.map((c) => c.processorId)).toEqual(['proc_a', 'proc_c']);
  });

  it('never calls a processor that is not enabled (processor-level enabled: false)', async () => {
    const mocks = mockPaymentActivities({
      flow: cascadeFlow(['proc_a', 'proc_b', 'proc_c']),
      answers: { proc_a: 'soft' },
      processors: { proc_b: { enabled: false } },
    });
    const { outcome, state } = await run(mocks);
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(state.routeOrder).toEqual(['proc_a', 'proc_c']);
    expect(mocks.authorizeCalls.map((c) => c.processorId)).toEqual(['proc_a', 'proc_c']);
  });

  it('filters processors by the capture mode the intent needs (routing rule 1: capabilities)', async () => {
    const processors = {
      proc_a: { capabilities: ['capture:automatic'] },
      proc_b: { capabilities: ['capture:manual'] },
    };
    const auth = mockPaymentActivities({ flow: cascadeFlow(['proc_a', 'proc_b']), answers: {}, processors });
    expect((await run(auth, paymentInput({ intent: 'auth' }))).outcome).toMatchObject({ status: 'authorized' });
    expect(auth.authorizeCalls.map((c) => c.processorId)).toEqual(['proc_b']);

    const purchase = mockPaymentActivities({
      flow: cascadeFlow(['proc_a', 'proc_b']),
      answers: { proc_a: 'soft' },
      processors,
    });
    const { outcome, state } = await run(purchase);
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'do_not_honor' });
    expect(state.routeOrder).toEqual(['proc_a']);

    const none = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: {}, processors });
    expect((await run(none, paymentInput({ intent: 'auth' }))).outcome).toMatchObject({
      status: 'failed',
      declineCode: 'no_eligible_processor',
    });
    expect(none.authorizeCalls).toHaveLength(0);
    expect(none.finalized[0]).toMatchObject({ declineCategory: 'technical' });
  });

  it('respects maxFallbackRetries', async () => {
    const flow = cascadeFlow(['proc_a', 'proc_b', 'proc_c', 'proc_d'], { maxFallbackRetries: 1 });
    const mocks = mockPaymentActivities({
      flow,
      answers: { proc_a: 'soft', proc_b: 'soft', proc_c: 'approve', proc_d: 'approve' },
    });
    const { outcome, state } = await run(mocks);
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'do_not_honor' });
    expect(mocks.authorizeCalls.map((c) => c.processorId)).toEqual(['proc_a', 'proc_b']);
    expect(state.routeOrder).toEqual(['proc_a', 'proc_b']);
  });

  it('routes a sticky customer to their last successful processor first', async () => {
    const flow = cascadeFlow(['proc_a', 'proc_b', 'proc_c'], { stickyProcessorEnabled: true });
    const mocks = mockPaymentActivities({ flow, stickyProcessorId: 'proc_c', answers: {} });
    const { outcome, state } = await run(mocks);
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(mocks.authorizeCalls.map((c) => c.processorId)).toEqual(['proc_c']);
    expect(state.routeOrder[0]).toBe('proc_c');
  });

  it('a processor timeout after the charge is retried under the same key: exactly one charge', async () => {
    const mocks = mockPaymentActivities({
      flow: cascadeFlow(['proc_a', 'proc_b']),
      answers: { proc_a: (call) => (call === 1 ? 'charge_then_timeout' : 'approve'), proc_b: 'approve' },
    });
    const input = paymentInput();
    const { outcome } = await run(mocks, input);
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(mocks.authorizeCalls.map((c) => `${c.processorId}#${c.attemptNumber}`)).toEqual(['proc_a#1', 'proc_a#1']);
    expect([...mocks.ledger.values()]).toEqual([
      { idempotencyKey: `${input.paymentId}:1`, processorId: 'proc_a', amount: 1999 },
    ]);
    expect(mocks.attempts.size).toBe(1);
  });

  it('a blocked payment calls no processor and fails with blocked_by_rule', async () => {
    const mocks = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: {}, blocked: true });
    const { outcome } = await run(mocks);
    expect(outcome).toMatchObject({ status: 'failed', declineCode: 'blocked_by_rule' });
    expect(mocks.authorizeCalls).toHaveLength(0);
    expect(mocks.finalized[0]).toMatchObject({ blockedByRuleId: 'br_test' });
  });

  it('skips the block-rule check when prepare read that no rule is enabled, and runs it otherwise', async () => {
    const noRules = mockPaymentActivities({
      flow: cascadeFlow(['proc_a']),
      answers: { proc_a: 'approve' },
      noBlockRules: true,
    });
    expect((await run(noRules)).outcome).toMatchObject({ status: 'succeeded' });
    expect(noRules.blockRuleChecks()).toBe(0);

    const someRules = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: { proc_a: 'approve' } });
    expect((await run(someRules)).outcome).toMatchObject({ status: 'succeeded' });
    expect(someRules.blockRuleChecks()).toBe(1);
  });

  it('auth mode authorizes without capture; a rejected request writes nothing', async () => {
    const mocks = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: {} });
    const { outcome } = await run(mocks, paymentInput({ intent: 'auth' }));
    expect(outcome).toMatchObject({ status: 'authorized' });
    expect(mocks.authorizeCalls[0]!.capture).toBe(false);

    const rejecting = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: {}, rejected: true });
    const rejected = await run(rejecting);
    expect(rejected.outcome).toEqual({
      kind: 'rejected',
      error: { kind: 'not_found', code: 'NOT_FOUND', message: 'Payment instrument not found' },
    });
    expect(rejected.state).toMatchObject({ step: 'done', status: 'rejected' });
    expect(rejecting.authorizeCalls).toHaveLength(0);
    expect(rejecting.finalized).toHaveLength(0);
  });

  it('a run the API starts (dispatchAtFinalize) has finalize dispatch after commit: one workflow task, no activity', async () => {
    const mocks = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: { proc_a: 'approve' } });
    const input = paymentInput({ dispatchAtFinalize: true });
    const events = await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(paymentWorkflow, {
        workflowId: input.paymentId,
        taskQueue,
        args: [input],
      });
      expect(await handle.result()).toMatchObject({ status: 'succeeded' });
      return (await handle.fetchHistory()).events ?? [];
    });
    expect(mocks.finalized).toEqual([expect.objectContaining({ status: 'succeeded', dispatchAfterCommit: true })]);
    expect(mocks.dispatched).toEqual([]);
    expect(events.filter((event) => event.workflowTaskCompletedEventAttributes)).toHaveLength(1);
    expect(events.filter((event) => event.activityTaskScheduledEventAttributes)).toHaveLength(0);

    // A run without the flag (started before it, or a child payment) dispatches by its activity.
    const older = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: { proc_a: 'approve' } });
    await run(older);
    expect(older.finalized).toEqual([expect.not.objectContaining({ dispatchAfterCommit: true })]);
    expect(older.dispatched).toEqual([['evt_test']]);
  });

  it('answers the awaitOutcome update sent with update-with-start', async () => {
    const mocks = mockPaymentActivities({ flow: cascadeFlow(['proc_a']), answers: {} });
    const input = paymentInput();
    const outcome = await withWorker(env, mocks.activities, (taskQueue) =>
      env.client.workflow.executeUpdateWithStart(awaitOutcomeUpdate, {
        args: [{ waitMs: 10_000 }],
        startWorkflowOperation: new WithStartWorkflowOperation(paymentWorkflow, {
          workflowId: input.paymentId,
          taskQueue,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      }),
    );
    expect(outcome).toMatchObject({
      kind: 'payment',
      paymentId: input.paymentId,
      status: 'succeeded',
      amount: 1999,
      currency: 'USD',
    });
  });
});
