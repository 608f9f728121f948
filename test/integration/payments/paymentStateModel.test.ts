import { createPaymentRefundActivities } from '../../../activities/payments/refund';
import { createPaymentSettlementActivities } from '../../../activities/payments/settlement';
import type { ActivityDeps } from '../../../activities/deps';
import { createPrismaClient, type Db } from '../../../src/db/prisma';
import { newId } from '../../../src/domain/ids';
import { closeDisputeFromProcessor, openDisputeFromProcessor } from '../../../src/payments/disputeEvents';
import type { FollowUpOutcome, ProcessorFollowUp } from '../../../src/payments/followUpTypes';
import { lockPayment, reopenSucceededRefund, settlePendingRefund } from '../../../src/payments/refundOutcomes';
import type { ProcessorEvent } from '../../../src/processors/types';
import { createMerchant, type Merchant } from '../../helpers/fixtures';
import { fc } from '../../unit/properties/fcConfig';
import { createStore } from '../subscriptions/subscriptionsFixtures';

/**
 * Model-based test of a payment's money state against real Postgres: random sequences of capture
 * (whole or partial, or failed), void, refunds (succeeded, failed, pending then settled), refunds
 * reversed after success, and chargebacks opened, won and lost, each applied through the engine's
 * own activities and services (no processor: its answer is part of the command) and to a small
 * reference model written out here. After every step the payment, its refunds and its disputes
 * equal the model's. Fixed seed in `npm test` (test/unit/properties/fcConfig.ts).
 */

interface Model {
  authorized: number;
  status: string;
  captured: number;
  reserved: number;
  refunds: { id: string; amount: number; status: 'pending' | 'succeeded' | 'failed' }[];
  disputes: { reference: string; amount: number; status: string }[];
}

interface Real {
  db: Db;
  paymentId: string;
}

let db: Db;
let merchant: Merchant;
let store: Awaited<ReturnType<typeof createStore>>;
// The refund and settlement activities use only the database; nothing here calls a processor.
let refunds: ReturnType<typeof createPaymentRefundActivities>;
let settlements: ReturnType<typeof createPaymentSettlementActivities>;

const succeededSum = (m: Model) => m.refunds.filter((r) => r.status === 'succeeded').reduce((s, r) => s + r.amount, 0);
const refundedStatus = (m: Model) => {
  const sum = succeededSum(m);
  return sum === 0 ? 'succeeded' : sum >= m.captured ? 'refunded' : 'partially_refunded';
};
const scope = () => ({ accountId: merchant.accountId, mode: merchant.mode });
const rejectionCode = (outcome: unknown) =>
  (outcome as FollowUpOutcome).kind === 'rejected' ? (outcome as { error: { code: string } }).error.code : null;

type Cmd = fc.AsyncCommand<Model, Real>;

/** A step: applied to the engine and the model, then the two compared. */
abstract class Step implements Cmd {
  check(_m: Readonly<Model>): boolean {
    return true;
  }
  abstract apply(m: Model, r: Real): Promise<void>;
  async run(m: Model, r: Real): Promise<void> {
    await this.apply(m, r);
    await expectSame(m, r);
  }
}

class Capture extends Step {
  constructor(
    readonly operation: 'capture' | 'void',
    readonly amount: number | null,
    readonly fails: boolean,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const workflowId = newId('payment');
    const input = { operation: this.operation, paymentId: r.paymentId, ...scope(), amount: this.amount };
    const begun = await settlements.beginSettlement({ ...input, workflowId });
    const asked = this.operation === 'capture' ? (this.amount ?? m.authorized) : m.authorized;
    const expected =
      asked > m.authorized
        ? 'AMOUNT_EXCEEDS_AUTHORIZATION'
        : m.status !== 'authorized'
          ? this.operation === 'capture'
            ? 'PAYMENT_NOT_CAPTURABLE'
            : 'PAYMENT_NOT_VOIDABLE'
          : null;
    expect(rejectionCode(begun)).toBe(expected);
    if (expected || 'kind' in begun) return;
    const result: ProcessorFollowUp = this.fails
      ? { outcome: 'failed', code: 'processing_error', message: 'failed' }
      : { outcome: 'succeeded', processorReference: 'op_ref', dispute: null };
    await settlements.finishSettlement({ ...input, workflowId, call: begun, result });
    if (!this.fails && this.operation === 'capture') Object.assign(m, { status: 'succeeded', captured: asked });
    if (!this.fails && this.operation === 'void') m.status = 'canceled';
  }
  override toString = () => `${this.operation}(${this.amount ?? 'all'}${this.fails ? ', fails' : ''})`;
}

class Refund extends Step {
  constructor(
    readonly amount: number | null,
    readonly outcome: 'succeeded' | 'failed' | 'pending',
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const input = { refundId: newId('refund'), paymentId: r.paymentId, ...scope(), amount: this.amount };
    const call = await refunds.reserveRefund(input);
    const amount = this.amount ?? m.captured - m.reserved;
    const refundable = ['succeeded', 'partially_refunded'].includes(m.status) && m.captured > 0;
    // An open or lost dispute forbids refunds; a won one does not.
    const disputed = m.disputes.some((d) => ['needs_response', 'under_review', 'lost'].includes(d.status));
    const expected = !refundable
      ? 'PAYMENT_NOT_REFUNDABLE'
      : disputed
        ? 'PAYMENT_DISPUTED'
        : amount < 1 || m.reserved + amount > m.captured
          ? 'REFUND_EXCEEDS_CAPTURED'
          : null;
    expect(rejectionCode(call)).toBe(expected);
    if (expected || 'kind' in call) return;
    m.reserved += amount;
    const refund = { id: input.refundId, amount, status: 'pending' as 'pending' | 'succeeded' | 'failed' };
    m.refunds.push(refund);
    const result: ProcessorFollowUp =
      this.outcome === 'failed'
        ? { outcome: 'failed', code: 'processing_error', message: 'failed' }
        : { outcome: this.outcome, processorReference: `re_${input.refundId}`, dispute: null };
    await refunds.finishRefund({ ...input, call, result });
    if (this.outcome === 'failed') {
      refund.status = 'failed';
      m.reserved -= amount;
    } else if (this.outcome === 'succeeded') {
      refund.status = 'succeeded';
      m.status = refundedStatus(m);
    }
  }
  override toString = () => `refund(${this.amount ?? 'rest'}, ${this.outcome})`;
}

/** The processor's later word on a refund: a pending one settles, or a succeeded one comes back. */
class RefundLater extends Step {
  constructor(
    readonly pick: number,
    readonly kind: 'confirm' | 'fail' | 'reverse',
  ) {
    super();
  }
  private target(m: Model) {
    const wanted = this.kind === 'reverse' ? 'succeeded' : 'pending';
    const candidates = m.refunds.filter((x) => x.status === wanted);
    return candidates[this.pick % Math.max(candidates.length, 1)];
  }
  override check(m: Readonly<Model>) {
    return this.target(m as Model) !== undefined;
  }
  async apply(m: Model, r: Real) {
    const refund = this.target(m)!;
    await r.db.$transaction(async (tx) => {
      await lockPayment(tx, r.paymentId);
      if (this.kind === 'reverse') return reopenSucceededRefund(tx, refund.id, 'refund_reversed');
      return settlePendingRefund(
        tx,
        refund.id,
        this.kind === 'confirm'
          ? { succeeded: true, processorReference: null }
          : { succeeded: false, code: 'refund_failed', message: null },
      );
    });
    if (this.kind === 'confirm') {
      refund.status = 'succeeded';
      m.status = refundedStatus(m);
      return;
    }
    refund.status = 'failed';
    m.reserved -= refund.amount;
    if (this.kind === 'reverse') m.status = refundedStatus(m);
  }
  override toString = () => `refundLater(${this.pick}, ${this.kind})`;
}

class DisputeOpened extends Step {
  constructor(
    readonly amount: number | undefined,
    readonly currency: string | undefined,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const reference = newId('dispute');
    const event: ProcessorEvent = {
      vendorEventId: reference,
      vendorType: 'dispute.created',
      kind: 'dispute_opened',
      succeeded: true,
      operationReference: reference,
      amount: this.amount,
      currency: this.currency,
    };
    await r.db.$transaction(async (tx) =>
      openDisputeFromProcessor(tx, await tx.payment.findUniqueOrThrow({ where: { id: r.paymentId } }), event),
    );
    if (m.captured === 0) return;
    const counts = this.amount !== undefined && this.currency?.toUpperCase() === 'USD';
    m.disputes.push({
      reference,
      amount: counts ? Math.min(this.amount!, m.captured) : m.captured,
      status: 'needs_response',
    });
  }
  override toString = () => `disputeOpened(${this.amount ?? '-'} ${this.currency ?? '-'})`;
}

class DisputeClosed extends Step {
  constructor(
    readonly pick: number,
    readonly outcome: 'won' | 'lost',
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.disputes.length > 0;
  }
  async apply(m: Model, r: Real) {
    const dispute = m.disputes[this.pick % m.disputes.length]!;
    const event: ProcessorEvent = {
      vendorEventId: newId('dispute'),
      vendorType: 'dispute.closed',
      kind: this.outcome === 'won' ? 'dispute_won' : 'dispute_lost',
      succeeded: true,
      operationReference: dispute.reference,
    };
    await r.db.$transaction(async (tx) =>
      closeDisputeFromProcessor(
        tx,
        await tx.payment.findUniqueOrThrow({ where: { id: r.paymentId } }),
        event,
        this.outcome,
      ),
    );
    const open = ['needs_response', 'under_review'].includes(dispute.status);
    if (open || (this.outcome === 'lost' && dispute.status === 'won')) dispute.status = this.outcome;
  }
  override toString = () => `disputeClosed(${this.pick}, ${this.outcome})`;
}

async function expectSame(m: Model, r: Real) {
  const payment = await r.db.payment.findUniqueOrThrow({
    where: { id: r.paymentId },
    include: { refunds: true, disputes: true },
  });
  expect({ status: payment.status, captured: payment.amountCaptured, reserved: payment.amountRefunded }).toEqual({
    status: m.status,
    captured: m.captured,
    reserved: m.reserved,
  });
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  expect(payment.refunds.map((x) => ({ id: x.id, amount: x.amount, status: x.status })).sort(byId)).toEqual(
    m.refunds.map((x) => ({ ...x })).sort(byId),
  );
  const byRef = (a: { reference: string }, b: { reference: string }) => a.reference.localeCompare(b.reference);
  expect(
    payment.disputes.map((d) => ({ reference: d.processorReference!, amount: d.amount, status: d.status })).sort(byRef),
  ).toEqual(m.disputes.map((d) => ({ ...d })).sort(byRef));
}

const amountAround = (max: number) => fc.oneof(fc.integer({ min: 1, max }), fc.integer({ min: 1, max: max + 50 }));

const commands = fc.commands(
  [
    fc
      .tuple(
        fc.constantFrom<'capture' | 'void'>('capture', 'capture', 'capture', 'void'),
        fc.option(amountAround(1000), { freq: 2 }),
        fc.constantFrom(false, false, false, true),
      )
      .map(([op, amount, fails]) => new Capture(op, amount, fails)),
    fc
      .tuple(
        fc.option(amountAround(600)),
        fc.constantFrom<'succeeded' | 'failed' | 'pending'>('succeeded', 'succeeded', 'failed', 'pending'),
      )
      .map(([amount, outcome]) => new Refund(amount, outcome)),
    fc
      .tuple(fc.nat(), fc.constantFrom<'confirm' | 'fail' | 'reverse'>('confirm', 'fail', 'reverse'))
      .map(([pick, kind]) => new RefundLater(pick, kind)),
    fc
      .tuple(
        fc.option(amountAround(1200), { nil: undefined }),
        fc.option(fc.constantFrom('USD', 'usd', 'EUR'), { nil: undefined }),
      )
      .map(([amount, currency]) => new DisputeOpened(amount, currency)),
    fc
      .tuple(fc.nat(), fc.constantFrom<'won' | 'lost'>('won', 'lost'))
      .map(([pick, outcome]) => new DisputeClosed(pick, outcome)),
  ],
  { maxCommands: 25, size: 'max' },
);

describe('a payment money state machine against its model (real Postgres)', () => {
  beforeAll(async () => {
    db = createPrismaClient(process.env.TEST_DATABASE_URL!, 4);
    merchant = await createMerchant(db);
    store = await createStore(db, merchant);
    const deps = { db } as unknown as ActivityDeps;
    refunds = createPaymentRefundActivities(deps);
    settlements = createPaymentSettlementActivities(deps);
  });
  afterAll(async () => {
    await db?.$disconnect();
  });

  it('after every capture, void, refund and dispute step, amounts and statuses equal the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), commands, async (authorized, cmds) => {
        const paymentId = newId('payment');
        await db.payment.create({
          data: {
            id: paymentId,
            ...scope(),
            storeId: store.id,
            intent: 'auth',
            status: 'authorized',
            amount: authorized,
            currency: 'USD',
            processorId: store.processorId,
            processorReference: `pi_${paymentId}`,
          },
        });
        const model: Model = { authorized, status: 'authorized', captured: 0, reserved: 0, refunds: [], disputes: [] };
        const real: Real = { db, paymentId };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        // The last step compared already; this covers a run whose every command was skipped.
        await expectSame(model, real);
      }),
      { numRuns: 60 },
    );
  });
});
