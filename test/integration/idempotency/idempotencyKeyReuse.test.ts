import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createPaymentPrepareActivities } from '../../../activities/payments/prepare';
import { createPaymentRefundActivities } from '../../../activities/payments/refund';
import { createMaintenanceActivities } from '../../../activities/maintenance/sweeps';
import type { PaymentWorkflowInput, PrepareResult } from '../../../src/payments/workflowTypes';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards, netCharged, payV2 } from '../payments/paymentsFixtures';

/**
 * Payment and refund ids are derived from the Idempotency-Key, and those rows live for good, while
 * the key's stored answer is kept 24 h. A key reused after that for ANOTHER request must not get
 * the old payment's answer (an unpaid order that looks paid), nor authorize or refund again under
 * the old rows: the key's fingerprint stays (409 IDEMPOTENCY_KEY_REUSED), the ids bind the request,
 * and the activities resume only a row of the same request that is still open. Records are aged in
 * the database, not waited for.
 */
describe('Idempotency-Key reused after its answer expired (Postgres, dev server, sandbox acquirer)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  const post = (path: string, body: unknown, key: string) =>
    call(harness, 'POST', `${api}${path}`, { token: t.token, body, headers: { 'idempotency-key': key } });
  /** What 25 hours do to a key's record. */
  const age = (key: string) =>
    harness.db.$executeRaw`
      UPDATE "idempotency_records"
         SET "created_at" = "created_at" - interval '25 hours', "expires_at" = "expires_at" - interval '25 hours'
       WHERE "key" = ${key}`;
  const purchase = async (amount: number) => ({
    storeId: t.storeId,
    customerId: t.customerId,
    currency: 'EUR',
    amount,
    mode: 'purchase',
    paymentInstrumentId: await t.instrument(cards.approve),
  });
  const activityDeps = () => ({
    db: harness.db,
    logger: harness.logger,
    config: harness.config,
    sandboxUrl: harness.sandboxUrl,
  });

  it('pay-v2: another checkout under an expired key is 409, not the old payment; its session stays unpaid', async () => {
    const key = randomUUID();
    const paid = await t.checkout();
    const first = await payV2(
      harness,
      t.token,
      { checkoutSessionId: paid.id, paymentInstrumentId: await t.instrument(cards.approve) },
      { 'idempotency-key': key },
    );
    expect(first.status).toBe(200);
    expect(await age(key)).toBe(1);

    const other = await t.checkout();
    const reused = await payV2(
      harness,
      t.token,
      { checkoutSessionId: other.id, paymentInstrumentId: await t.instrument(cards.approve) },
      { 'idempotency-key': key },
    );
    expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await harness.db.payment.count({ where: { checkoutSessionId: other.id } })).toBe(0);
    expect((await harness.db.checkoutSession.findUniqueOrThrow({ where: { id: other.id } })).status).toBe('open');
  });

  it('payments/process: another amount under an expired (and swept) key is 409; the same request still answers its payment, one charge', async () => {
    const key = randomUUID();
    const body = await purchase(1300);
    const first = await post('/payments/process', body, key);
    expect(first.status).toBe(200);
    const paymentId = first.body.payment.id as string;
    expect(await age(key)).toBe(1);
    // The hourly sweep: strips the answer, keeps the fingerprint.
    expect(await createMaintenanceActivities(activityDeps()).purgeExpiredIdempotencyRecords()).toBeGreaterThanOrEqual(
      1,
    );
    const record = await harness.db.idempotencyRecord.findFirstOrThrow({ where: { key } });
    expect([record.state, record.responseBody]).toEqual(['expired', null]);

    const reused = await post('/payments/process', { ...body, amount: 4100 }, key);
    expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);

    // The same request again: its id is the same, so it finds its payment, charged once.
    const replayed = await post('/payments/process', body, key);
    expect(replayed.status).toBe(200);
    expect(replayed.body.payment).toMatchObject({ id: paymentId, status: 'succeeded', amount: 1300 });
    const ledger = await t.ledger(t.processorIds[0]!);
    expect(netCharged(ledger.filter((e) => e.amount === 4100))).toBe(0);
    expect(ledger.filter((e) => e.operation === 'authorize' && e.amount === 1300 && e.reference === paymentId)).toEqual(
      [expect.objectContaining({ outcome: 'approved' })],
    );
  });

  it("refund: another payment's refund under an expired key is 409, and nothing is refunded on it", async () => {
    const first = await post('/payments/process', await purchase(900), randomUUID());
    const second = await post('/payments/process', await purchase(800), randomUUID());
    const [p1, p2] = [first.body.payment.id as string, second.body.payment.id as string];
    const key = randomUUID();
    expect((await post('/payments/refund', { paymentId: p1, amount: 300 }, key)).status).toBe(200);
    expect(await age(key)).toBe(1);

    const reused = await post('/payments/refund', { paymentId: p2, amount: 300 }, key);
    expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await t.ledger(t.processorIds[0]!, { reference: p2, operation: 'refund' })).toEqual([]);
    expect((await harness.db.payment.findUniqueOrThrow({ where: { id: p2 } })).amountRefunded).toBe(0);
    expect(await t.ledger(t.processorIds[0]!, { reference: p1, operation: 'refund' })).toHaveLength(1);
  });

  describe('a run started again under an existing id (as when Temporal no longer holds the old run)', () => {
    const inputOf = (payment: {
      id: string;
      storeId: string;
      customerId: string | null;
      paymentInstrumentId: string | null;
      amount: number;
    }): PaymentWorkflowInput => ({
      paymentId: payment.id,
      accountId: t.merchant.accountId,
      mode: 'test',
      storeId: payment.storeId,
      customerId: payment.customerId!,
      paymentInstrumentId: payment.paymentInstrumentId,
      amount: payment.amount,
      currency: 'EUR',
      intent: 'purchase',
      initiatedBy: 'customer',
      source: null,
      paymentFlowId: t.flowId,
    });

    it('preparePayment refuses a finished payment and another request, and resumes only its own open row', async () => {
      const { preparePayment } = createPaymentPrepareActivities(activityDeps());
      const done = await post('/payments/process', await purchase(1100), randomUUID());
      const row = await harness.db.payment.findUniqueOrThrow({ where: { id: done.body.payment.id } });
      expect(row.status).toBe('succeeded');

      const again = await preparePayment(inputOf(row));
      expect(again).toMatchObject({ kind: 'rejected', error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      const otherAmount = await preparePayment({ ...inputOf(row), amount: 2300 });
      expect(otherAmount).toMatchObject({ kind: 'rejected', error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      const otherCard = await preparePayment({
        ...inputOf(row),
        paymentInstrumentId: await t.instrument(cards.approve),
      });
      expect(otherCard).toMatchObject({ kind: 'rejected', error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      expect(await harness.db.payment.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: 'succeeded',
        amount: 1100,
      });

      // A retried prepare of its own row (written, nothing decided yet) goes on.
      const fresh = { ...inputOf(row), paymentId: `pay_${randomUUID().replace(/-/g, '').slice(0, 20)}` };
      expect((await preparePayment(fresh)).kind).toBe('ready');
      expect((await preparePayment(fresh)).kind).toBe('ready');
      expect(await harness.db.payment.count({ where: { id: fresh.paymentId } })).toBe(1);
    });

    it('the run that wrote a row resumes it even once decided (its lost first workflow task done again); another run does not', async () => {
      const { preparePayment } = createPaymentPrepareActivities(activityDeps());
      const done = await post('/payments/process', await purchase(1200), randomUUID());
      const row = await harness.db.payment.findUniqueOrThrow({ where: { id: done.body.payment.id } });
      expect(row).toMatchObject({ status: 'succeeded', workflowRunId: expect.any(String) });
      const asRun = (runId: string): Promise<PrepareResult> =>
        new MockActivityEnvironment({ workflowExecution: { workflowId: row.id, runId } }).run(
          preparePayment,
          inputOf(row),
        );

      expect((await asRun(row.workflowRunId!)).kind).toBe('ready');
      expect(await asRun(randomUUID())).toMatchObject({ kind: 'rejected', error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      expect(await harness.db.payment.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: 'succeeded',
        amount: 1200,
      });
    });

    it("reserveRefund refuses a settled refund and another payment's, and resumes only its own pending one", async () => {
      const { reserveRefund } = createPaymentRefundActivities(activityDeps());
      const first = await post('/payments/process', await purchase(1000), randomUUID());
      const second = await post('/payments/process', await purchase(1000), randomUUID());
      const [p1, p2] = [first.body.payment.id as string, second.body.payment.id as string];
      const refunded = await post('/payments/refund', { paymentId: p1, amount: 400 }, randomUUID());
      expect(refunded.status).toBe(200);
      const refundId = refunded.body.id as string;
      const scope = { accountId: t.merchant.accountId, mode: 'test' as const };

      const onOther = await reserveRefund({ refundId, paymentId: p2, ...scope, amount: 400 });
      expect(onOther).toMatchObject({ kind: 'rejected', error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      const settled = await reserveRefund({ refundId, paymentId: p1, ...scope, amount: 400 });
      expect(settled).toMatchObject({ kind: 'rejected', error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      expect((await harness.db.payment.findUniqueOrThrow({ where: { id: p2 } })).amountRefunded).toBe(0);
      expect((await harness.db.payment.findUniqueOrThrow({ where: { id: p1 } })).amountRefunded).toBe(400);

      // A retried reservation after its commit resumes its own pending row, reserved once.
      const pendingId = `re_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      const reserved = await reserveRefund({ refundId: pendingId, paymentId: p2, ...scope, amount: 250 });
      const retried = await reserveRefund({ refundId: pendingId, paymentId: p2, ...scope, amount: 250 });
      expect(retried).toEqual(reserved);
      expect(reserved).toMatchObject({ amount: 250, idempotencyKey: pendingId });
      expect((await harness.db.payment.findUniqueOrThrow({ where: { id: p2 } })).amountRefunded).toBe(250);
    });
  });
});
