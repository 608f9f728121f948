import { randomBytes, randomUUID } from 'node:crypto';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { buildNotification } from '../../../src/processors/adyen/webhooks';
import { startAdyenSimulator, type RunningAdyenSimulator } from '../../../simulators/vendors/adyen/server';
import { api, ok } from '../commerce/commerceHelpers';
import { createPaymentTenant, tenantApi, type PaymentTenant } from './paymentsFixtures';

/**
 * The whole asynchronous loop with Adyen over real HTTP: the engine's adyen processor calls the
 * Adyen simulator, which answers modifications `received` and then POSTs signed notifications to
 * the engine's processor-webhook route; the route settles the rows and wakes the waiting workflow.
 */
describe('Adyen webhooks settle what Adyen answered received (Postgres, dev server, Adyen simulator)', () => {
  let harness: Harness;
  let adyen: RunningAdyenSimulator;
  let t: PaymentTenant;
  let processorId: string;
  const hmacKey = randomBytes(32).toString('hex').toUpperCase();

  beforeAll(async () => {
    // Notifications follow the answers after 300 ms (then 600, 900 ms on retries), as Adyen's come
    // after its answers; the payment workflow records an automatic capture well within that.
    adyen = await startAdyenSimulator({ notificationDelayMs: 300 });
    harness = await startHarness();
    t = await createPaymentTenant(harness);
    processorId = t.processorIds[0]!;
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId,
      updatedData: {
        name: 'Adyen',
        type: 'adyen',
        credentials: { apiKey: `AQE${randomUUID()}`, merchantAccount: 'EngineECOM', hmacKey, endpoint: adyen.url },
      },
    });
    const answer = await fetch(`${adyen.url}/simulator/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${harness.url}${api}/processor-webhooks/${processorId}`, hmacKey }),
    });
    expect(answer.status).toBe(204);
  });
  afterAll(async () => {
    await harness?.stop();
    await adyen?.stop();
  });

  const post = (path: string, body: Record<string, unknown>) => tenantApi(harness, t).post(path, body);
  const pay = async (card: string, amount: number, mode: 'purchase' | 'auth') => {
    const answer = await tenantApi(harness, t).process(card, amount, mode);
    expect(answer.status).toBe(200);
    return answer.body.payment.id as string;
  };
  const payment = (id: string) => harness.db.payment.findUniqueOrThrow({ where: { id } });
  const eventsOf = async (paymentId: string, eventType: string) =>
    (await harness.db.event.findMany({ where: { accountId: t.merchant.accountId, eventType } })).filter(
      (event) => (event.properties as { paymentId?: string }).paymentId === paymentId,
    );
  const workflowResult = (workflowId: string) => harness.temporal.workflow.getHandle(workflowId).result();

  it('a refund Adyen answers received stays pending until REFUND, then succeeds once; the workflow ends with it', async () => {
    const paymentId = await pay('4242424242424242', 1000, 'purchase');
    const refund = await post('/payments/refund', { paymentId, amount: 300 });
    expect(refund.status).toBe(202);
    expect(refund.body).toMatchObject({ status: 'pending', payment: { status: 'succeeded' } });
    const refundId = refund.body.id as string;
    const outcome = await workflowResult(refundId);
    expect(outcome).toMatchObject({ kind: 'done', succeeded: true, paymentStatus: 'partially_refunded' });
    expect(outcome.pending).toBeUndefined();
    expect(await harness.db.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: 'succeeded',
    });
    expect(await payment(paymentId)).toMatchObject({ status: 'partially_refunded', amountRefunded: 300 });
    expect(await eventsOf(paymentId, 's_payment_refunded')).toHaveLength(1);
    const recorded = await harness.db.processorWebhookEvent.findMany({ where: { refundId } });
    expect(recorded).toEqual([expect.objectContaining({ vendorType: 'REFUND', kind: 'refund', effect: 'settled' })]);
    const read = await call(harness, 'GET', `${api}/payments/${paymentId}`, { token: t.token });
    expect(read.body).toMatchObject({ status: 'partially_refunded' });
  });

  it('REFUND_FAILED after REFUND reopens the amount: the refund fails, the payment is refundable again', async () => {
    const paymentId = await pay('4000000000005126', 800, 'purchase');
    const refund = await post('/payments/refund', { paymentId });
    expect(refund.status).toBe(202);
    const refundId = refund.body.id as string;
    const failed = await until(async () => {
      const row = await harness.db.refund.findUniqueOrThrow({ where: { id: refundId } });
      return row.status === 'failed' ? row : undefined;
    });
    expect(failed.failureCode).toBe('refund_reversed');
    expect(await payment(paymentId)).toMatchObject({ status: 'succeeded', amountRefunded: 0 });
    expect(await eventsOf(paymentId, 's_payment_refunded')).toHaveLength(1);
    expect(await eventsOf(paymentId, 's_payment_refund_failed')).toEqual([
      expect.objectContaining({
        properties: expect.objectContaining({ refundId, amount: 800, failureCode: 'refund_reversed' }),
      }),
    ]);
    const effects = await harness.db.processorWebhookEvent.findMany({
      where: { refundId },
      orderBy: { receivedAt: 'asc' },
    });
    expect(effects.map((row) => [row.vendorType, row.effect])).toEqual([
      ['REFUND', 'settled'],
      ['REFUND_FAILED', 'reopened'],
    ]);
  });

  it('a capture Adyen answers received is confirmed by CAPTURE; a cancel by CANCELLATION', async () => {
    const captured = await pay('4242424242424242', 2500, 'auth');
    const capture = await post('/payments/capture', { paymentId: captured, amount: 2000 });
    expect(capture.status).toBe(202);
    expect(capture.body).toMatchObject({ status: 'processing' });
    expect(await until(async () => ((await payment(captured)).status === 'succeeded' ? true : undefined))).toBe(true);
    expect(await payment(captured)).toMatchObject({ amountCaptured: 2000 });
    const captureEvents = await eventsOf(captured, 's_payment_succeeded');
    expect(captureEvents.filter((event) => (event.properties as { captured: boolean }).captured)).toHaveLength(1);

    const voided = await pay('5555555555554444', 1200, 'auth');
    expect((await post('/payments/void', { paymentId: voided })).status).toBe(202);
    expect(await until(async () => ((await payment(voided)).status === 'canceled' ? true : undefined))).toBe(true);
    expect(await eventsOf(voided, 's_payment_voided')).toHaveLength(1);
  });

  it('a capture Adyen fails (CAPTURE success false) gives the authorization back', async () => {
    const paymentId = await pay('4000000000000341', 900, 'auth');
    const capture = await post('/payments/capture', { paymentId });
    expect(capture.status).toBe(202);
    await until(async () => ((await payment(paymentId)).status === 'authorized' ? true : undefined));
    const recorded = await harness.db.processorWebhookEvent.findMany({ where: { paymentId, vendorType: 'CAPTURE' } });
    expect(recorded).toEqual([expect.objectContaining({ kind: 'capture', effect: 'settled' })]);
    expect(await payment(paymentId)).toMatchObject({ status: 'authorized', amountCaptured: 0 });
  });

  it('CAPTURE_FAILED on an automatic capture moves the payment to review (failed + metadata.review)', async () => {
    const paymentId = await pay('4000000000000341', 700, 'purchase');
    const reviewed = await until(async () => {
      const row = await payment(paymentId);
      return row.status === 'failed' ? row : undefined;
    });
    expect(reviewed).toMatchObject({ amountCaptured: 0, declineCode: 'capture_failed' });
    expect(reviewed.metadata).toMatchObject({ review: { reason: 'capture_failed', processorId } });
    expect(await eventsOf(paymentId, 's_payment_failed')).toHaveLength(1);
  });

  it('CHARGEBACK records a dispute (needs_response) and s_payment_disputed, once', async () => {
    const paymentId = await pay('4000000000000259', 1500, 'purchase');
    const disputes = await until(async () => {
      const rows = await harness.db.dispute.findMany({ where: { paymentId } });
      return rows.length > 0 ? rows : undefined;
    });
    expect(disputes).toEqual([expect.objectContaining({ amount: 1500, status: 'needs_response', reason: 'Fraud' })]);
    expect(await eventsOf(paymentId, 's_payment_disputed')).toHaveLength(1);
  });

  /** A captured payment the dispute card got a CHARGEBACK on, and that dispute's row. */
  const chargedBack = async (amount: number) => {
    const paymentId = await pay('4000000000000259', amount, 'purchase');
    const [dispute] = await until(async () => {
      const rows = await harness.db.dispute.findMany({ where: { paymentId } });
      return rows.length > 0 ? rows : undefined;
    });
    return { paymentId, dispute: dispute!, paymentPsp: (await payment(paymentId)).processorReference! };
  };
  /** A signed notification about that dispute, POSTed to the engine's route as Adyen does. */
  const disputeNotification = (eventCode: string, disputed: Awaited<ReturnType<typeof chargedBack>>) =>
    fetch(`${harness.url}${api}/processor-webhooks/${processorId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        buildNotification(
          [
            {
              pspReference: disputed.dispute.processorReference!,
              originalReference: disputed.paymentPsp,
              merchantAccountCode: 'EngineECOM',
              merchantReference: disputed.paymentId,
              amount: { value: disputed.dispute.amount, currency: 'EUR' },
              eventCode,
              eventDate: '2026-11-27T20:00:00+00:00',
              success: 'true',
            },
          ],
          false,
          hmacKey,
        ),
      ),
    }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as Record<string, unknown> }));
  const disputeStatus = async (id: string) => (await harness.db.dispute.findUniqueOrThrow({ where: { id } })).status;

  it('CHARGEBACK_REVERSED wins the dispute once (ten identical deliveries at once); SECOND_CHARGEBACK then loses it', async () => {
    const disputed = await chargedBack(1600);
    expect(disputed.dispute).toMatchObject({ status: 'needs_response', processorReference: expect.any(String) });

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => disputeNotification('CHARGEBACK_REVERSED', disputed)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.reduce((sum, answer) => sum + (answer.body.applied as number), 0)).toBe(1);
    expect(await disputeStatus(disputed.dispute.id)).toBe('won');
    const won = await eventsOf(disputed.paymentId, 's_payment_dispute_closed');
    expect(won.map((event) => event.properties)).toEqual([
      {
        paymentId: disputed.paymentId,
        disputeId: disputed.dispute.id,
        amount: 1600,
        currency: 'EUR',
        reason: 'Fraud',
        status: 'won',
      },
    ]);

    expect((await disputeNotification('SECOND_CHARGEBACK', disputed)).status).toBe(200);
    expect(await disputeStatus(disputed.dispute.id)).toBe('lost');
    const closed = await eventsOf(disputed.paymentId, 's_payment_dispute_closed');
    expect(closed.map((event) => (event.properties as { status: string }).status).sort()).toEqual(['lost', 'won']);
    // The payment itself is as it was: the dispute records the outcome.
    expect(await payment(disputed.paymentId)).toMatchObject({ status: 'succeeded', amountCaptured: 1600 });
  });

  it('a win arriving after the loss changes nothing, and an outcome for an unknown dispute is left alone', async () => {
    const disputed = await chargedBack(1700);
    expect((await disputeNotification('SECOND_CHARGEBACK', disputed)).status).toBe(200);
    expect((await disputeNotification('CHARGEBACK_REVERSED', disputed)).status).toBe(200);
    expect(await disputeStatus(disputed.dispute.id)).toBe('lost');
    expect(await eventsOf(disputed.paymentId, 's_payment_dispute_closed')).toHaveLength(1);
    const late = await harness.db.processorWebhookEvent.findFirstOrThrow({
      where: { processorId, vendorType: 'CHARGEBACK_REVERSED', paymentId: disputed.paymentId },
    });
    expect(late).toMatchObject({ kind: 'dispute_won', effect: 'not_applicable' });

    // Another dispute id on the same payment, whose only dispute carries its own id: ambiguous, not applied.
    const stranger = { ...disputed, dispute: { ...disputed.dispute, processorReference: 'DISPUNKNOWN00001' } };
    expect((await disputeNotification('SECOND_CHARGEBACK', stranger)).status).toBe(200);
    const unknown = await harness.db.processorWebhookEvent.findFirstOrThrow({
      where: { processorId, vendorEventId: 'SECOND_CHARGEBACK:DISPUNKNOWN00001:true' },
    });
    expect(unknown).toMatchObject({ kind: 'dispute_lost', effect: 'not_applicable', paymentId: disputed.paymentId });
  });
});
