import { newId } from '../../../src/domain/ids';
import type { PaymentWorkflowInput } from '../../../src/payments/workflowTypes';
import { paymentWorkflow } from '../../../workflows/payments/payment';
import { crash, startWorkerProcess, type EngineProcess } from '../../helpers/engineProcess';
import { startHarness, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { stripeKit } from '../processors/kits/stripe';
import type { KitAccount } from '../processors/kits/types';
import { createStripeTenant, type PaymentTenant } from './paymentsFixtures';
import { submitAuthenticationPage } from './stepUpHelpers';

/**
 * A worker process killed with `kill -9` while a payment waits for the shopper at Stripe's
 * authentication page (the Stripe simulator): the shopper authenticates while no worker runs,
 * comes back, and once a new worker starts the payment finishes with one charge.
 */
const stripe = stripeKit();

describe('a worker killed while a payment waits for step-up authentication (separate process, Stripe simulator)', () => {
  let harness: Harness;
  let t: PaymentTenant;
  let account: KitAccount;
  const workers: EngineProcess[] = [];
  beforeAll(async () => {
    await stripe.start();
    harness = await startHarness();
    account = await stripe.account({ timeoutMs: 5000, holdMs: 0 });
    t = await createStripeTenant(harness, account.credentials);
  });
  afterAll(async () => {
    for (const worker of workers) await crash(worker);
    await harness?.stop();
    await stripe.stop();
  });

  it('finishes after the restart with the shopper’s result: succeeded, one charge, one attempt', async () => {
    const taskQueue = `stepup-crash-${process.pid}-${Date.now()}`;
    const input: PaymentWorkflowInput = {
      paymentId: newId('payment'),
      accountId: t.merchant.accountId,
      mode: 'test',
      storeId: t.storeId,
      customerId: t.customerId,
      paymentInstrumentId: await t.instrument('4000002760003184'),
      amount: 4200,
      currency: 'EUR',
      intent: 'purchase',
      initiatedBy: 'customer',
      source: null,
      paymentFlowId: t.flowId,
      returnBaseUrl: harness.url,
    };
    workers.push(await startWorkerProcess(harness, taskQueue));
    const handle = await harness.temporal.workflow.start(paymentWorkflow, {
      workflowId: input.paymentId,
      taskQueue,
      args: [input],
    });
    await until(async () => {
      const row = await harness.db.payment.findUnique({ where: { id: input.paymentId } });
      return row?.status === 'requires_action' ? row : undefined;
    }, 60_000);
    await crash(workers[0]!);

    // The shopper authenticates while no worker runs (at the page the PaymentIntent names): the money moves at Stripe.
    const intent = await until(async () => {
      const answer = await fetch(
        `${account.credentials.endpoint}/_simulator/intents?${new URLSearchParams({ secretKey: account.credentials.secretKey! }).toString()}`,
      );
      const { intents } = (await answer.json()) as { intents: { id: string; metadata: Record<string, string> }[] };
      return intents.find((candidate) => candidate.metadata.payment_id === input.paymentId);
    });
    const pending = await fetch(`${account.credentials.endpoint}/v1/payment_intents/${intent.id}`, {
      headers: { authorization: `Bearer ${account.credentials.secretKey}` },
    });
    const next = ((await pending.json()) as { next_action: { redirect_to_url: { url: string } } }).next_action;
    const submitted = await submitAuthenticationPage(next.redirect_to_url.url, 'approve');
    expect(submitted.status).toBe(303);
    expect(await account.netCharged(input.paymentId)).toBe(4200);

    workers.push(await startWorkerProcess(harness, taskQueue));
    const returnLink = submitted.headers.get('location')!;
    const back = await fetch(returnLink, { headers: { accept: 'application/json' } });
    expect(back.status).toBe(200);
    expect(await handle.result()).toMatchObject({ status: 'succeeded' });
    // However the first return fared while the new worker caught up, the browser now sees the result.
    const again = await fetch(returnLink, { headers: { accept: 'application/json' } });
    expect(await again.json()).toMatchObject({ settled: true, payment: { id: input.paymentId, status: 'succeeded' } });
    expect(await account.netCharged(input.paymentId)).toBe(4200);
    const attempts = await harness.db.paymentAttempt.findMany({ where: { paymentId: input.paymentId } });
    expect(attempts.map((attempt) => [attempt.attemptNumber, attempt.outcome])).toEqual([[1, 'approved']]);
  }, 120_000);
});
