import type { PaymentOutcome, PaymentWorkflowInput } from '../../../src/payments/workflowTypes';
import { paymentWorkflow } from '../../../workflows/payments/payment';
import { crash, startWorkerProcess, type EngineProcess } from '../../helpers/engineProcess';
import { startHarness, type Harness } from '../../helpers/harness';
import { cards, checkoutPaymentInput, createPaymentTenant, netCharged, type PaymentTenant } from './paymentsFixtures';

/** The call is held at the acquirer until the test releases it; the engine must not give up on it first. */
const startWorker = (harness: Harness, taskQueue: string) =>
  startWorkerProcess(harness, taskQueue, { PROCESSOR_TIMEOUT_MS: '20000' });

/** Two sandbox processors, A then B, in a cascade flow. */
async function cascadeTenant(harness: Harness): Promise<PaymentTenant> {
  return createPaymentTenant(harness, { processors: 2 });
}

const paymentInput = (t: PaymentTenant) => checkoutPaymentInput(t, cards.approve);

/** Net charge per processor for this payment, from the acquirer's own ledger. */
async function charges(t: PaymentTenant, paymentId: string): Promise<number[]> {
  return Promise.all(t.processorIds.map(async (id) => netCharged(await t.ledger(id, { reference: paymentId }))));
}

/**
 * One worker process, killed with `kill -9` while two payments are held at their acquirers (a test
 * hold, released after the kill, then A approves): the kill lands during the processor call. After the restart the lost activity is
 * retried once its heartbeat timeout (5 s) passes, under the same idempotency key. For the
 * second payment, acquirer A answers 503 to every one of those retries: nothing then tells the
 * engine whether the first call charged, so it may not cascade to B unless A's attempt is reversed.
 */
describe('a worker killed during a processor call (separate process, real dev server, sandbox acquirer)', () => {
  let harness: Harness;
  const workers: EngineProcess[] = [];
  let answering: { t: PaymentTenant; input: PaymentWorkflowInput; outcome: PaymentOutcome };
  let refusing: { t: PaymentTenant; input: PaymentWorkflowInput; outcome: PaymentOutcome };

  beforeAll(async () => {
    harness = await startHarness();
    const taskQueue = `crash-${process.pid}-${Date.now()}`;
    const tenants = [await cascadeTenant(harness), await cascadeTenant(harness)] as const;
    const inputs = [await paymentInput(tenants[0]), await paymentInput(tenants[1])] as const;
    workers.push(await startWorker(harness, taskQueue));
    const holds = await Promise.all(tenants.map((t) => t.hold(t.processorIds[0]!)));
    const handles = await Promise.all(
      inputs.map((input) =>
        harness.temporal.workflow.start(paymentWorkflow, { workflowId: input.paymentId, taskQueue, args: [input] }),
      ),
    );

    // Both authorize calls are held at acquirer A when the worker dies.
    for (const [i, hold] of holds.entries()) expect(await hold.holding(60_000)).toBe(`${inputs[i]!.paymentId}:1`);
    await crash(workers[0]!);
    await tenants[1].outage(tenants[1].processorIds[0]!, true);
    // A approves both held calls now, with no worker left to hear it.
    for (const hold of holds) await hold.release();
    for (const input of inputs)
      expect((await harness.db.payment.findUniqueOrThrow({ where: { id: input.paymentId } })).status).toBe(
        'processing',
      );

    workers.push(await startWorker(harness, taskQueue));
    const outcomes = await Promise.all(handles.map((handle) => handle.result()));
    await tenants[1].outage(tenants[1].processorIds[0]!, false);
    answering = { t: tenants[0], input: inputs[0], outcome: outcomes[0]! };
    refusing = { t: tenants[1], input: inputs[1], outcome: outcomes[1]! };
  }, 150_000);

  afterAll(async () => {
    for (const worker of workers) await crash(worker);
    await harness?.stop();
  });

  it("completes after the restart with exactly one charge: the retry gets the acquirer's stored answer", async () => {
    const { t, input, outcome } = answering;
    expect(outcome).toMatchObject({ kind: 'payment', status: 'succeeded' });
    expect(await t.ledger(t.processorIds[0]!, { reference: input.paymentId, operation: 'authorize' })).toEqual([
      expect.objectContaining({ idempotencyKey: `${input.paymentId}:1`, outcome: 'approved' }),
    ]);
    expect(await charges(t, input.paymentId)).toEqual([input.amount, 0]);
    const payment = await harness.db.payment.findUniqueOrThrow({
      where: { id: input.paymentId },
      include: { attempts: true },
    });
    expect(payment.status).toBe('succeeded');
    expect(payment.attempts).toHaveLength(1);
    expect(
      (await harness.db.checkoutSession.findUniqueOrThrow({ where: { id: input.checkoutSessionId! } })).status,
    ).toBe('paid');
  });

  it('never cascades to B while A answers 503 to every retry: the unknown outcome is left for review, one charge at most', async () => {
    const { t, input, outcome } = refusing;
    const [a, b] = t.processorIds as [string, string];
    // The call the worker died in was approved by A when its hold was released: that charge stands.
    const [chargedAtA, chargedAtB] = (await charges(t, input.paymentId)) as [number, number];
    expect(chargedAtA + chargedAtB).toBeLessThanOrEqual(input.amount);
    expect(chargedAtA).toBe(input.amount);
    expect(await t.ledger(b)).toEqual([]);
    expect(outcome).toMatchObject({ kind: 'payment', status: 'failed', declineCode: 'processor_outcome_unknown' });
    const payment = await harness.db.payment.findUniqueOrThrow({
      where: { id: input.paymentId },
      include: { attempts: true },
    });
    expect((payment.metadata as any).review).toEqual({
      reason: 'reversal_unconfirmed',
      processorId: a,
      idempotencyKey: `${input.paymentId}:1`,
    });
    expect(payment.attempts.map((x) => [x.processorId, x.outcome, x.errorCode])).toEqual([
      [a, 'error', 'processor_unavailable'],
    ]);
  });
});
