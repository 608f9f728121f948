import { spawn, type ChildProcess } from 'node:child_process';
import { projectRoot } from '../../src/config';
import { newId } from '../../src/domain/ids';
import type { PaymentWorkflowInput } from '../../src/payments/workflowTypes';
import { paymentStateQuery, paymentWorkflow } from '../../workflows/payment';
import { startHarness, type Harness } from '../helpers/harness';
import { cards, createPaymentTenant } from './paymentsFixtures';

/** `npm run worker` as its own process on its own task queue, against the test database and dev server. */
function startWorkerProcess(harness: Harness, taskQueue: string): ChildProcess {
  return spawn('npm', ['run', '--silent', 'worker'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: taskQueue,
      SANDBOX_URL: harness.sandboxUrl,
      // Longer than the acquirer holds the timeout card: the call is in flight when the worker dies.
      PROCESSOR_TIMEOUT_MS: '20000',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
    detached: true,
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGKILL'); // the whole group: npm and the node worker under it
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a worker killed mid-payment (separate process, real dev server, sandbox acquirer)', () => {
  let harness: Harness;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    for (const child of children) await kill(child);
    await harness?.stop();
  });

  it('completes after a restart with exactly one charge in the acquirer ledger', async () => {
    const t = await createPaymentTenant(harness, { credentials: { timeoutDelayMs: '5000' } });
    const checkout = await t.checkout();
    const taskQueue = `crash-${process.pid}-${Date.now()}`;
    const input: PaymentWorkflowInput = {
      paymentId: newId('payment'),
      accountId: t.merchant.accountId,
      mode: 'test',
      storeId: t.storeId,
      customerId: t.customerId,
      paymentInstrumentId: await t.instrument(cards.timeout),
      amount: checkout.total,
      currency: checkout.currency,
      intent: 'purchase',
      initiatedBy: 'customer',
      source: 'checkout',
      paymentFlowId: t.flowId,
      checkoutSessionId: checkout.id,
    };
    const first = startWorkerProcess(harness, taskQueue);
    children.push(first);
    const handle = await harness.temporal.workflow.start(paymentWorkflow, { workflowId: input.paymentId, taskQueue, args: [input] });

    // Wait until the authorize call is at the acquirer (which holds the timeout card 5 s), then kill.
    const deadline = Date.now() + 60_000;
    while ((await handle.query(paymentStateQuery).catch(() => null))?.step !== 'authorizing') {
      if (Date.now() > deadline) throw new Error('payment never reached the authorize step');
      await sleep(100);
    }
    await sleep(1_000);
    await kill(first);
    expect((await harness.db.payment.findUniqueOrThrow({ where: { id: input.paymentId } })).status).toBe('processing');

    const second = startWorkerProcess(harness, taskQueue);
    children.push(second);
    // The lost activity is retried once its start-to-close timeout (30 s) passes, under the same key.
    const outcome = await handle.result();
    expect(outcome).toMatchObject({ kind: 'payment', status: 'succeeded' });
    expect(await t.ledger(t.processorIds[0]!, { reference: input.paymentId, operation: 'authorize' })).toEqual([
      expect.objectContaining({ idempotencyKey: `${input.paymentId}:1`, outcome: 'approved' }),
    ]);
    const payment = await harness.db.payment.findUniqueOrThrow({ where: { id: input.paymentId }, include: { attempts: true } });
    expect(payment.status).toBe('succeeded');
    expect(payment.attempts).toHaveLength(1);
    expect((await harness.db.checkoutSession.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe('paid');
  }, 110_000);
});
