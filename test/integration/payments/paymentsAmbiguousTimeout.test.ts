import { ApplicationFailure } from '@temporalio/common';
import { claimAttempt } from '../../../src/payments/attemptClaims';
import { searchAttributes } from '../../../temporal/searchAttributes';
import { startHarness, type Harness } from '../../helpers/harness';
import {
  authorizeActivitiesOn,
  authorizeTries,
  cards,
  createPaymentTenant,
  netCharged,
  payV2,
  untilSettled,
  type PaymentTenant,
} from './paymentsFixtures';
import type { AcquirerHold } from '../../helpers/acquirerHolds';
import { until } from '../../helpers/until';

// The engine waits 500 ms per processor call and 1 s for the payment's answer. The authorize
// activity's retry budget (4 tries with 0.3/0.6/1.2 s backoff) ends about 4.1 s after the first
// try. A call held at the acquirer (a test hold) answers only when the test releases it; the
// activity-level cases below use the timeout card, held 7 s, longer than any one try waits.
const engineTimeoutMs = 500;
const neverAnswersMs = '7000';

describe('a processor that never answers (Postgres, dev server, sandbox acquirer)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({
      PROCESSOR_TIMEOUT_MS: String(engineTimeoutMs),
      PAYMENT_RESPONSE_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await harness?.stop();
  });

  /** Two processors: A holds the next authorization until the test releases it, B answers at once. */
  async function silentThenPrompt(): Promise<{ t: PaymentTenant; heldAtA: AcquirerHold }> {
    const t = await createPaymentTenant(harness, { processors: 2 });
    return { t, heldAtA: await t.hold(t.processorIds[0]!) };
  }

  it('reverses A by idempotency key before cascading to B: the ledgers end with exactly one net charge', async () => {
    const { t, heldAtA } = await silentThenPrompt();
    const [a, b] = t.processorIds as [string, string];
    const checkout = await t.checkout();
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(answer.status).toBe(202);
    expect(answer.body.payment).toMatchObject({ status: 'processing', amount: 1999 });
    const paymentId = answer.body.payment.id;

    const detail = await untilSettled(harness, t.token, paymentId);
    expect(detail).toMatchObject({ status: 'succeeded', processorId: b, orderId: expect.stringMatching(/^ord_/) });
    expect(detail.attempts.map((x: any) => [x.attemptNumber, x.processorId, x.outcome, x.errorCode])).toEqual([
      [1, a, 'error', 'timeout'],
      [2, b, 'approved', null],
    ]);
    expect(detail.attempts[0].message).toContain('reversal by idempotency key confirmed nothing stands');
    expect(await authorizeTries(harness, paymentId)).toEqual([4, 1]);

    // Released now, A's held authorization completes and finds its key reversed: never charged.
    await heldAtA.release();
    const aLedger = await until(async () => {
      const entries = await t.ledger(a);
      return entries.some((e) => e.operation === 'authorize') ? entries : undefined;
    });
    expect(aLedger.map((e) => [e.operation, e.outcome, e.code, e.idempotencyKey])).toEqual([
      ['reversal', 'succeeded', 'nothing_to_reverse', `${paymentId}:1:reversal`],
      ['authorize', 'declined', 'authorization_reversed', `${paymentId}:1`],
    ]);
    const bLedger = await t.ledger(b);
    expect(Date.parse(aLedger[0].createdAt)).toBeLessThanOrEqual(Date.parse(bLedger[0].createdAt));
    expect(netCharged(aLedger) + netCharged(bLedger)).toBe(1999);
    expect(netCharged(bLedger)).toBe(1999);
  });

  it('does not cascade when the reversal cannot reach A: fails processor_outcome_unknown for review, B never called', async () => {
    const { t, heldAtA } = await silentThenPrompt();
    const [a, b] = t.processorIds as [string, string];
    const checkout = await t.checkout();
    const paying = payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    // Once the first try is held by A, A goes into outage: the later tries are refused with 503,
    // which alone would say "not processed"; the first try's timeout must still count.
    const heldKey = await heldAtA.holding();
    const paymentId = heldKey.replace(/:1$/, '');
    await t.outage(a, true);
    const handle = harness.temporal.workflow.getHandle(paymentId);
    expect((await paying).status).toBe(202);

    const detail = await untilSettled(harness, t.token, paymentId, 40_000);
    await t.outage(a, false);
    expect(detail).toMatchObject({
      status: 'failed',
      declineCode: 'processor_outcome_unknown',
      declineCategory: 'technical',
    });
    expect(detail.attempts).toEqual([
      expect.objectContaining({
        processorId: a,
        outcome: 'error',
        errorCode: 'processor_unavailable',
        message: expect.stringContaining('Needs review'),
      }),
    ]);
    const row = await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect((row.metadata as any).review).toEqual({
      reason: 'reversal_unconfirmed',
      processorId: a,
      idempotencyKey: `${paymentId}:1`,
    });
    // The row is written before the workflow's last task sets the search attribute: read it once the run is over.
    await handle.result();
    const described = await handle.describe();
    expect(described.typedSearchAttributes.get(searchAttributes.PaymentStatus)).toBe('needs_review');
    expect(await t.ledger(b)).toEqual([]);
    // The charge an operator has to settle: A approves the held call after all.
    await heldAtA.release();
    const aLedger = await until(async () => {
      const entries = await t.ledger(a);
      return entries.length > 0 ? entries : undefined;
    });
    expect(netCharged(aLedger)).toBe(1999);
  });

  it('answers 202 processing at the response deadline, then the payment succeeds with one charge', async () => {
    const t = await createPaymentTenant(harness);
    const held = await t.hold(t.processorIds[0]!);
    const checkout = await t.checkout();
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(answer.status).toBe(202);
    // Released within the authorize activity's retry budget: a later try gets the stored approval.
    expect(await held.holding()).toBe(`${answer.body.payment.id}:1`);
    await held.release();
    expect(answer.body).toMatchObject({
      order: null,
      payment: { status: 'processing', amount: 1999, currency: 'EUR' },
    });
    const detail = await untilSettled(harness, t.token, answer.body.payment.id);
    expect(detail).toMatchObject({ status: 'succeeded', amountCaptured: 1999 });
    expect(netCharged(await t.ledger(t.processorIds[0]!))).toBe(1999);
  });

  it('a 5xx after charging: the retries never charge again, lookup finds the charge and the reversal undoes it', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.errorAfterCharge),
    });
    // Answered 202 `processing` when the retries and the reversal outlast the 1 s wait, else the decline itself.
    const paymentId: string = answer.status === 202 ? answer.body.payment.id : answer.body.data.paymentId;
    expect(paymentId).toMatch(/^pay_/);
    const detail = await untilSettled(harness, t.token, paymentId);
    expect(detail).toMatchObject({ status: 'failed', declineCode: 'processor_error', amountCaptured: 0 });
    expect(detail.attempts).toEqual([
      expect.objectContaining({
        outcome: 'error',
        errorCode: 'processor_error',
        message: expect.stringContaining('reversed by idempotency key (1999 reversed)'),
      }),
    ]);
    // Four tries under one key, one charge; then the reversal of exactly that charge.
    expect(await authorizeTries(harness, paymentId)).toEqual([4]);
    const ledger = await t.ledger(t.processorIds[0]!);
    expect(ledger.map((e) => [e.operation, e.outcome, e.amount, e.idempotencyKey])).toEqual([
      ['authorize', 'approved', 1999, `${paymentId}:1`],
      ['reversal', 'succeeded', 1999, `${paymentId}:1:reversal`],
    ]);
    expect(netCharged(ledger)).toBe(0);
  });

  describe('authorizeAttempt carries "may have charged" from try to try in its claim row', () => {
    let t: PaymentTenant;
    beforeAll(async () => {
      t = await createPaymentTenant(harness, { credentials: { timeoutDelayMs: neverAnswersMs } });
    });

    async function attemptOf(card: string) {
      return {
        paymentId: `pay_carry${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
        attemptNumber: 1,
        processorId: t.processorIds[0]!,
        accountId: t.merchant.accountId,
        mode: 'test' as const,
        paymentInstrumentId: await t.instrument(card),
        amount: 500,
        currency: 'EUR',
        capture: true,
        initiatedBy: 'customer' as const,
      };
    }

    /** One try of the activity, as a worker runs it (its own attempt counter always 1, as after a restart). */
    async function failingTry(input: Awaited<ReturnType<typeof attemptOf>>) {
      const { activities, env } = authorizeActivitiesOn(harness);
      const error = await env.run(activities.authorizeAttempt, input).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(ApplicationFailure);
      return (error as ApplicationFailure).details?.[0];
    }

    const claimOf = (input: { paymentId: string }) =>
      harness.db.authorizationClaim.findFirstOrThrow({
        where: { paymentId: input.paymentId, attemptNumber: 1 },
        select: { tries: true, settledTries: true, mayHaveCharged: true },
      });

    it('a timeout may have charged; an outage alone did not; an outage after an earlier timeout still may have', async () => {
      const timedOut = await attemptOf(cards.timeout);
      expect(await failingTry(timedOut)).toEqual({ code: 'timeout', mayHaveCharged: true });
      await t.outage(t.processorIds[0]!, true);
      try {
        expect(await failingTry(timedOut)).toEqual({ code: 'processor_unavailable', mayHaveCharged: true });
        expect(await claimOf(timedOut)).toEqual({ tries: 2, settledTries: 2, mayHaveCharged: true });

        const refused = await attemptOf(cards.approve);
        expect(await failingTry(refused)).toEqual({ code: 'processor_unavailable', mayHaveCharged: false });
        expect(await failingTry(refused)).toEqual({ code: 'processor_unavailable', mayHaveCharged: false });
        expect(await claimOf(refused)).toEqual({ tries: 2, settledTries: 2, mayHaveCharged: false });
      } finally {
        await t.outage(t.processorIds[0]!, false);
      }
    });

    it('a try that left no verdict (its worker died mid-call) may have charged, even when every later try is refused', async () => {
      const input = await attemptOf(cards.approve);
      // The first try claimed the call and its worker died before any verdict.
      await claimAttempt(harness.db, input);
      await t.outage(t.processorIds[0]!, true);
      try {
        expect(await failingTry(input)).toEqual({ code: 'processor_unavailable', mayHaveCharged: true });
        expect(await failingTry(input)).toEqual({ code: 'processor_unavailable', mayHaveCharged: true });
        expect(await claimOf(input)).toEqual({ tries: 3, settledTries: 2, mayHaveCharged: true });
      } finally {
        await t.outage(t.processorIds[0]!, false);
      }
    });
  });
});
