import { createPaymentFinalizeActivities } from '../../../activities/payments/finalize';
import { newId } from '../../../src/domain/ids';
import { resolvePaymentReview } from '../../../src/payments/review';
import { outcomeUnknownCode } from '../../../src/payments/workflowTypes';
import { call } from '../../helpers/harness';
import { runCommand, type CommandRun } from '../../helpers/runCommand';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';
import { createStore } from '../subscriptions/subscriptionsFixtures';

/** `npm run --silent admin -- …` as an operator runs it, against the test database. */
function admin(...args: string[]): Promise<CommandRun> {
  return runCommand('npm', ['run', '--silent', 'admin', '--', ...args], {
    DATABASE_URL: process.env.TEST_DATABASE_URL,
  });
}

describe('admin needs-review / resolve-review (a separate process on the same database)', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);
  let store: Awaited<ReturnType<typeof createStore>>;

  beforeAll(async () => {
    store = await createStore(harness.db, merchant);
  });

  /**
   * A payment that ends as the workflow ends one whose reversal went unconfirmed: the row is
   * written by the real finalize activity, with or without a review.
   */
  async function failedPayment(options: { review: boolean; intent?: 'purchase' | 'auth'; amount?: number }) {
    const id = newId('payment');
    await harness.db.payment.create({
      data: {
        id,
        accountId: merchant.accountId,
        mode: merchant.mode,
        storeId: store.id,
        paymentFlowId: store.defaultPaymentFlowId,
        intent: options.intent ?? 'purchase',
        status: 'processing',
        amount: options.amount ?? 1250,
        currency: 'USD',
      },
    });
    await createPaymentFinalizeActivities(harness).finalizePayment({
      paymentId: id,
      status: 'failed',
      processorId: null,
      processorReference: null,
      captured: false,
      declineCode: outcomeUnknownCode,
      declineCategory: 'technical',
      declineMessage: 'no answer from the processor',
      review: options.review
        ? { reason: 'reversal_unconfirmed', processorId: store.processorId, attemptNumber: 2 }
        : null,
    });
    return id;
  }

  const eventsOf = (paymentId: string) =>
    harness.db.event.findMany({
      where: { properties: { path: ['paymentId'], equals: paymentId } },
      orderBy: { createdAt: 'asc' },
    });

  it('needs-review lists the payments in review (with where a charge may stand), not other failed ones', async () => {
    const inReview = await failedPayment({ review: true });
    const plainFailure = await failedPayment({ review: false });

    const listed = await admin('needs-review');
    expect(listed.code).toBe(0);
    const { payments } = JSON.parse(listed.stdout) as { payments: { paymentId: string }[] };
    const ids = payments.map((payment) => payment.paymentId);
    expect(ids).toContain(inReview);
    expect(ids).not.toContain(plainFailure);
    expect(payments.find((payment) => payment.paymentId === inReview)).toEqual({
      paymentId: inReview,
      accountId: merchant.accountId,
      mode: 'test',
      storeId: store.id,
      customerId: null,
      orderId: null,
      amount: 1250,
      currency: 'USD',
      intent: 'purchase',
      declineCode: outcomeUnknownCode,
      review: { reason: 'reversal_unconfirmed', processorId: store.processorId, idempotencyKey: `${inReview}:2` },
      createdAt: expect.any(String),
    });
  });

  it('resolve-review charged: the payment succeeds, captured at the reviewed processor, with a note and events; once only under 10 concurrent runs', async () => {
    const paymentId = await failedPayment({ review: true, amount: 4200 });
    const runs = await Promise.all(
      Array.from({ length: 10 }, () =>
        admin('resolve-review', '--payment', paymentId, '--outcome', 'charged', '--note', 'acquirer report 7'),
      ),
    );
    const settled = runs.filter((run) => run.code === 0);
    const refused = runs.filter((run) => run.code !== 0);
    expect(settled).toHaveLength(1);
    expect(refused.map((run) => run.code)).toEqual(Array(9).fill(1));
    for (const run of refused)
      expect(run.stderr).toContain(`PAYMENT_NOT_IN_REVIEW: Payment ${paymentId} is not in review`);
    expect(JSON.parse(settled[0]!.stdout)).toMatchObject({
      paymentId,
      outcome: 'charged',
      status: 'succeeded',
      processorId: store.processorId,
      amountCaptured: 4200,
      note: 'acquirer report 7',
    });

    const read = await call(harness, 'GET', `/api/public/v1/payments/${paymentId}`, { token: merchant.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'succeeded', amountCaptured: 4200, declineCode: null });
    const row = await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(row.metadata).toMatchObject({
      review: { resolution: { outcome: 'charged', note: 'acquirer report 7', resolvedAt: expect.any(String) } },
    });
    const events = await eventsOf(paymentId);
    expect(events.map((event) => event.eventType)).toEqual([
      's_payment_failed',
      's_payment_review_resolved',
      's_payment_succeeded',
    ]);
    expect(events[1]!.properties).toMatchObject({ outcome: 'charged', status: 'succeeded', note: 'acquirer report 7' });

    const listed = JSON.parse((await admin('needs-review')).stdout) as { payments: { paymentId: string }[] };
    expect(listed.payments.map((payment) => payment.paymentId)).not.toContain(paymentId);
  });

  it('resolve-review not_charged keeps the payment failed and records one event even when raced in process', async () => {
    const paymentId = await failedPayment({ review: true });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => resolvePaymentReview(harness.db, { paymentId, outcome: 'not_charged' })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const reasons = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(reasons.map((reason: { code?: string }) => reason.code)).toEqual(Array(9).fill('PAYMENT_NOT_IN_REVIEW'));

    const row = await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(row).toMatchObject({ status: 'failed', amountCaptured: 0, declineCode: outcomeUnknownCode });
    const events = await eventsOf(paymentId);
    expect(events.map((event) => event.eventType)).toEqual(['s_payment_failed', 's_payment_review_resolved']);
    expect(events[1]!.properties).toMatchObject({ outcome: 'not_charged', status: 'failed', note: null });

    const again = await admin('resolve-review', '--payment', paymentId, '--outcome', 'charged');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('PAYMENT_NOT_IN_REVIEW');
    expect((await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe('failed');
  });

  it('an authorisation found charged becomes authorized, not captured', async () => {
    const paymentId = await failedPayment({ review: true, intent: 'auth' });
    const run = await admin('resolve-review', '--payment', paymentId, '--outcome', 'charged');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'authorized', amountCaptured: 0 });
    const succeeded = (await eventsOf(paymentId)).find((event) => event.eventType === 's_payment_succeeded');
    expect(succeeded?.properties).toMatchObject({ status: 'authorized', captured: false });
  });

  it('refuses a payment not in review, an unknown payment and a bad outcome, exiting non-zero', async () => {
    const plainFailure = await failedPayment({ review: false });
    const notInReview = await admin('resolve-review', '--payment', plainFailure, '--outcome', 'not_charged');
    expect(notInReview.code).toBe(1);
    expect(notInReview.stderr).toContain(
      `PAYMENT_NOT_IN_REVIEW: Payment ${plainFailure} is not in review (status failed)`,
    );
    expect(await eventsOf(plainFailure)).toHaveLength(1);

    const unknown = await admin('resolve-review', '--payment', 'pay_doesnotexist', '--outcome', 'charged');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOT_FOUND: Payment not found');

    const badOutcome = await admin('resolve-review', '--payment', plainFailure, '--outcome', 'maybe');
    expect(badOutcome.code).toBe(2);
    expect(badOutcome.stderr).toContain('--outcome charged or --outcome not_charged');
  });
});
