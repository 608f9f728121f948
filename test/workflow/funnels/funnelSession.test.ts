import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import type { Activities } from '../../../activities';
import type { FunnelStep } from '../../../src/domain/funnelGraph';
import type { FunnelSessionInput, FunnelSessionView, OfferAnswerView } from '../../../src/funnels/sessionTypes';
import type { PrepareUpsellInput, UpsellPlan } from '../../../src/funnels/upsells';
import type { PaymentWorkflowInput } from '../../../src/payments/workflowTypes';
import {
  answerOfferUpdate,
  checkoutPaidUpdate,
  funnelSessionQuery,
  funnelSessionWorkflow,
  trackStepUpdate,
} from '../../../workflows/funnels/session';
import { createTimeSkippingEnv, executeUpdateOnce, step, untilQuiescent, withWorker } from '../../helpers/timeSkipping';
import { cascadeFlow, mockPaymentActivities, paymentInput } from '../payments/paymentMocks';

const minute = 60_000;
const steps: FunnelStep[] = [
  { id: 'step_land', key: 'land', type: 'landing', next: 'step_pay' },
  { id: 'step_pay', key: 'pay', type: 'checkout', next: 'step_up' },
  { id: 'step_up', key: 'up', type: 'upsell', priceId: 'price_up', onAccept: 'step_thanks', onDecline: 'step_down' },
  {
    id: 'step_down',
    key: 'down',
    type: 'downsell',
    priceId: 'price_down',
    onAccept: 'step_thanks',
    onDecline: 'step_thanks',
  },
  { id: 'step_thanks', key: 'thanks', type: 'thankyou' },
];

let counter = 0;
const sessionInput = (): FunnelSessionInput => ({
  sessionId: `fs_wftest${Date.now()}${++counter}`,
  accountId: 'acc_test',
  mode: 'test',
  storeId: 'store_test',
  funnelId: 'funnelv2_test',
  customerId: 'cus_test',
  steps,
  idleTimeoutMs: 30 * minute,
});

/** Funnel activities over an in-memory answer table, and the payment activities of a one-processor flow. */
function mockFunnel(answers: Parameters<typeof mockPaymentActivities>[0]['answers'] = {}) {
  const payments = mockPaymentActivities({ flow: cascadeFlow(['proc_a', 'proc_b']), answers });
  const saves: FunnelSessionView[] = [];
  const prepared: PrepareUpsellInput[] = [];
  const recorded = new Map<string, OfferAnswerView>();
  const childPayments: PaymentWorkflowInput[] = [];
  const activities: Partial<Activities> = {
    ...payments.activities,
    async preparePayment(input) {
      childPayments.push(input);
      return payments.activities.preparePayment!(input);
    },
    async saveFunnelSession({ view }) {
      saves.push(view);
    },
    async loadFunnelCheckout({ paymentId }) {
      return {
        kind: 'ok' as const,
        checkout: {
          paymentId,
          paymentInstrumentId: 'pi_test',
          processorId: 'proc_b',
          paymentFlowId: 'flow_test',
          customerId: 'cus_test',
          currency: 'USD',
        },
      };
    },
    async prepareUpsell(input: PrepareUpsellInput): Promise<UpsellPlan> {
      prepared.push(input);
      const key = `${input.sessionId}:${input.stepId}`;
      recorded.set(key, { ...answerOf(input.stepId, 'processing'), paymentId: `pay_${input.stepId}` });
      const payment = paymentInput({
        paymentId: `pay_up${input.sessionId.slice(3)}${input.stepId.slice(5)}`,
        initiatedBy: 'merchant',
        source: 'upsell',
        paymentInstrumentId: input.checkout.paymentInstrumentId,
        pinnedProcessorId: input.checkout.processorId,
        amount: 990,
      });
      return { kind: 'start', payment };
    },
    async recordOfferAnswer({ sessionId, stepId, status, declineCode }) {
      const answer = { ...answerOf(stepId, status), declineCode };
      recorded.set(`${sessionId}:${stepId}`, answer);
      return answer;
    },
  };
  return { activities, saves, prepared, payments, childPayments };
}

const answerOf = (stepId: string, status: OfferAnswerView['status']): OfferAnswerView => ({
  stepId,
  accept: status !== 'declined',
  status,
  paymentId: status === 'declined' ? null : `pay_${stepId}`,
  orderId: null,
  amount: status === 'declined' ? null : 990,
  currency: status === 'declined' ? null : 'USD',
  declineCode: null,
});

describe('funnel session workflow (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  const start = (taskQueue: string, input: FunnelSessionInput) =>
    env.client.workflow.start(funnelSessionWorkflow, { workflowId: input.sessionId, taskQueue, args: [input] });

  it('expires after the idle timeout, and each event starts the timer again', async () => {
    const mocks = mockFunnel();
    const input = sessionInput();
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input);
      await untilQuiescent(handle);
      await env.sleep(20 * minute);
      await executeUpdateOnce(handle, trackStepUpdate, [{ eventType: 'view', stepId: 'step_land' }]);
      await untilQuiescent(handle);
      await env.sleep(20 * minute);
      // 40 minutes in, 20 since the last event: still active.
      expect((await handle.query(funnelSessionQuery)).status).toBe('active');
      const result = await step('idle expiry', handle.result(), 30_000);
      expect(result.status).toBe('expired');
    });
    expect(mocks.saves.at(-1)).toMatchObject({ status: 'expired', currentStepId: 'step_land' });
  });

  it('moves on tracking events, the paid checkout and offer answers, and completes at thankyou', async () => {
    const mocks = mockFunnel();
    const input = sessionInput();
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input);
      await untilQuiescent(handle);
      const entered = await executeUpdateOnce(handle, trackStepUpdate, [{ eventType: 'enter', stepId: 'step_pay' }]);
      expect(entered.currentStepId).toBe('step_pay');
      await untilQuiescent(handle);
      // An offer cannot be accepted before the checkout is paid, nor answered off its step.
      await expect(
        handle.executeUpdate(answerOfferUpdate, { args: [{ stepId: 'step_up', accept: true }] }),
      ).rejects.toThrow(WorkflowUpdateFailedError);
      const paid = await executeUpdateOnce(handle, checkoutPaidUpdate, [{ paymentId: 'pay_checkout' }]);
      expect(paid).toMatchObject({ currentStepId: 'step_up', checkoutPaymentId: 'pay_checkout' });
      await untilQuiescent(handle);
      const declined = await executeUpdateOnce(handle, answerOfferUpdate, [{ stepId: 'step_up', accept: false }]);
      expect(declined.status).toBe('declined');
      await untilQuiescent(handle);
      expect((await handle.query(funnelSessionQuery)).currentStepId).toBe('step_down');
      const accepted = await executeUpdateOnce(handle, answerOfferUpdate, [{ stepId: 'step_down', accept: true }]);
      expect(accepted.status).toBe('succeeded');
      const result = await step('completion', handle.result());
      expect(result).toMatchObject({ status: 'completed', currentStepId: 'step_thanks' });
      expect(result.answers.map((answer) => [answer.stepId, answer.status])).toEqual([
        ['step_up', 'declined'],
        ['step_down', 'succeeded'],
      ]);
    });
    // The downsell charged the checkout's card once as a child payment: merchant-initiated (no
    // challenge), source upsell, pinned to the checkout's processor (prepare's routing honours the pin).
    expect(mocks.payments.authorizeCalls).toHaveLength(1);
    expect(mocks.childPayments).toHaveLength(1);
    expect(mocks.childPayments[0]).toMatchObject({
      paymentInstrumentId: 'pi_test',
      initiatedBy: 'merchant',
      source: 'upsell',
      pinnedProcessorId: 'proc_b',
      amount: 990,
    });
    expect(mocks.saves.at(-1)).toMatchObject({ status: 'completed' });
  });

  it('charges an offer once when ten identical accepts arrive together', async () => {
    const mocks = mockFunnel();
    const input = sessionInput();
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle: WorkflowHandle<typeof funnelSessionWorkflow> = await start(taskQueue, { ...input });
      await untilQuiescent(handle);
      await executeUpdateOnce(handle, checkoutPaidUpdate, [{ paymentId: 'pay_checkout' }]);
      await untilQuiescent(handle);
      const clicks = await step(
        'ten accepts',
        Promise.all(
          Array.from({ length: 10 }, () =>
            handle.executeUpdate(answerOfferUpdate, { args: [{ stepId: 'step_up', accept: true }] }),
          ),
        ),
      );
      expect(new Set(clicks.map((click) => click.paymentId)).size).toBe(1);
      expect(clicks.every((click) => click.status === 'succeeded')).toBe(true);
      const result = await step('completion', handle.result());
      expect(result.status).toBe('completed');
    });
    expect(mocks.prepared).toHaveLength(1);
    expect(mocks.payments.authorizeCalls).toHaveLength(1);
  });

  it('refuses an unknown step, an offer off the current step and a conflicting answer', async () => {
    const mocks = mockFunnel();
    const input = sessionInput();
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input);
      await untilQuiescent(handle);
      await executeUpdateOnce(handle, checkoutPaidUpdate, [{ paymentId: 'pay_checkout' }]);
      await untilQuiescent(handle);
      await expect(
        handle.executeUpdate(trackStepUpdate, { args: [{ eventType: 'view', stepId: 'step_nowhere' }] }),
      ).rejects.toThrow(WorkflowUpdateFailedError);
      await expect(
        handle.executeUpdate(answerOfferUpdate, { args: [{ stepId: 'step_down', accept: true }] }),
      ).rejects.toThrow(WorkflowUpdateFailedError);
      expect((await handle.query(funnelSessionQuery)).currentStepId).toBe('step_up');
      await executeUpdateOnce(handle, answerOfferUpdate, [{ stepId: 'step_up', accept: false }]);
      await untilQuiescent(handle);
      const conflicting = await handle
        .executeUpdate(answerOfferUpdate, { args: [{ stepId: 'step_up', accept: true }] })
        .catch((error: unknown) => error);
      expect(conflicting).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((conflicting as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'OFFER_ALREADY_ANSWERED' });
      await handle.terminate('test over');
    });
    expect(mocks.prepared).toHaveLength(0);
  });

  it('follows onDecline when the accepted offer does not pay (a hard decline on every processor)', async () => {
    const mocks = mockFunnel({ proc_a: 'hard', proc_b: 'hard' });
    const input = sessionInput();
    await withWorker(env, mocks.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input);
      await untilQuiescent(handle);
      await executeUpdateOnce(handle, checkoutPaidUpdate, [{ paymentId: 'pay_checkout' }]);
      await untilQuiescent(handle);
      const answer = await executeUpdateOnce(handle, answerOfferUpdate, [{ stepId: 'step_up', accept: true }]);
      expect(answer).toMatchObject({ status: 'failed', declineCode: 'card_declined' });
      await untilQuiescent(handle);
      expect(await handle.query(funnelSessionQuery)).toMatchObject({ status: 'active', currentStepId: 'step_down' });
      await handle.terminate('test over');
    });
    expect(mocks.payments.finalized.map((final) => final.status)).toEqual(['failed']);
  });
});
