import {
  disputeAmount,
  disputeClosableFrom,
  openDisputeStatuses,
  processorDisputeAmount,
  refundAmount,
  refundedPaymentStatus,
  settlementAmount,
  type DisputeStatus,
} from '../../../src/domain/paymentAmounts';
import { fc } from './fcConfig';

const amount = fc.integer({ min: 0, max: 2_147_483_647 });
const positive = fc.integer({ min: 1, max: 2_147_483_647 });

/**
 * A payment's refunds as the services keep them: `reserved` is `payments.amount_refunded` (pending
 * and succeeded refunds), each step applied through the domain rules the services call.
 */
interface Ledger {
  captured: number;
  reserved: number;
  refunds: { amount: number; status: 'pending' | 'succeeded' | 'failed' }[];
  status: ReturnType<typeof refundedPaymentStatus>;
}

type Step =
  | { kind: 'refund'; requested: number | null }
  | { kind: 'succeed'; pick: number }
  | { kind: 'fail'; pick: number }
  | { kind: 'reopen'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('refund' as const),
    // Small amounts, amounts near the capture, and "all that is left".
    requested: fc.oneof(fc.integer({ min: -2, max: 50 }), fc.integer({ min: 0, max: 1200 }), fc.constant(null)),
  }),
  fc.record({ kind: fc.constantFrom('succeed' as const, 'fail' as const, 'reopen' as const), pick: fc.nat() }),
);

function sumOf(ledger: Ledger, statuses: string[]): number {
  return ledger.refunds.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + r.amount, 0);
}

function apply(ledger: Ledger, s: Step): void {
  if (s.kind === 'refund') {
    const planned = refundAmount(ledger.captured, ledger.reserved, s.requested);
    if (!planned.ok) return;
    ledger.reserved += planned.amount;
    ledger.refunds.push({ amount: planned.amount, status: 'pending' });
    return;
  }
  const wanted = s.kind === 'reopen' ? 'succeeded' : 'pending';
  const candidates = ledger.refunds.filter((r) => r.status === wanted);
  const refund = candidates[s.pick % Math.max(candidates.length, 1)];
  if (!refund) return;
  if (s.kind === 'succeed') refund.status = 'succeeded';
  else {
    // A failed refund (or a confirmed one the processor reverses) gives its reservation back.
    refund.status = 'failed';
    ledger.reserved -= refund.amount;
  }
  if (s.kind !== 'fail') ledger.status = refundedPaymentStatus(ledger.captured, sumOf(ledger, ['succeeded']));
}

describe('refund, capture and dispute arithmetic laws', () => {
  it('over any sequence of refunds, failures and reversals, refunds never exceed the capture', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.array(step, { maxLength: 40 }), (captured, steps) => {
        const ledger: Ledger = { captured, reserved: 0, refunds: [], status: 'succeeded' };
        for (const s of steps) {
          apply(ledger, s);
          const succeeded = sumOf(ledger, ['succeeded']);
          expect(ledger.reserved).toBe(sumOf(ledger, ['pending', 'succeeded']));
          expect(ledger.reserved).toBeLessThanOrEqual(captured);
          expect(succeeded).toBeLessThanOrEqual(captured);
          expect(ledger.status).toBe(refundedPaymentStatus(captured, succeeded));
        }
      }),
    );
  });

  it('a refund that is granted is at least 1 and at most what is left; refused exactly when it does not fit', () => {
    // The amount asked: anything, or (most telling) right around what is left.
    const asked = fc.oneof(
      fc.record({ nearLeft: fc.constant(false), value: fc.option(positive) }),
      fc.record({ nearLeft: fc.constant(true), value: fc.integer({ min: -2, max: 2 }) }),
    );
    fc.assert(
      fc.property(amount, amount, asked, (a, b, ask) => {
        const [reserved, captured] = a <= b ? [a, b] : [b, a];
        const left = captured - reserved;
        const requested = ask.nearLeft ? Math.max(1, left + ask.value!) : ask.value;
        const planned = refundAmount(captured, reserved, requested);
        if (planned.ok) {
          expect(planned.amount).toBeGreaterThanOrEqual(1);
          expect(planned.amount).toBeLessThanOrEqual(left);
          expect(planned.amount).toBe(requested ?? left);
        } else if (requested === null) {
          expect(planned.reason).toBe('nothing_left');
          expect(left).toBe(0);
        } else {
          expect(planned.reason).toBe('exceeds_captured');
          expect(requested).toBeGreaterThan(left);
        }
      }),
    );
  });

  it('refunding all that is left, in any number of parts, ends refunded and leaves nothing', () => {
    fc.assert(
      fc.property(positive, fc.array(fc.integer({ min: 1, max: 10_000 }), { maxLength: 8 }), (captured, parts) => {
        let reserved = 0;
        for (const part of parts) {
          const planned = refundAmount(captured, reserved, part);
          if (planned.ok) reserved += planned.amount;
        }
        const rest = refundAmount(captured, reserved, null);
        if (rest.ok) reserved += rest.amount;
        expect(reserved).toBe(captured);
        expect(refundedPaymentStatus(captured, reserved)).toBe('refunded');
        expect(refundAmount(captured, reserved, null)).toEqual({ ok: false, reason: 'nothing_left' });
        expect(refundAmount(captured, reserved, 1)).toEqual({ ok: false, reason: 'exceeds_captured' });
      }),
    );
  });

  it('the refunded status: none refunded is succeeded, part is partially_refunded, all is refunded', () => {
    fc.assert(
      fc.property(positive, amount, (captured, succeeded) => {
        const refunded = Math.min(succeeded, captured);
        const status = refundedPaymentStatus(captured, refunded);
        expect(status).toBe(refunded === 0 ? 'succeeded' : refunded === captured ? 'refunded' : 'partially_refunded');
      }),
    );
  });

  it('a partial capture never exceeds the authorization; a void always releases all of it', () => {
    fc.assert(
      fc.property(positive, fc.option(positive), (authorized, requested) => {
        const capture = settlementAmount('capture', authorized, requested);
        if (capture.ok) {
          expect(capture.amount).toBeLessThanOrEqual(authorized);
          expect(capture.amount).toBe(requested ?? authorized);
        } else expect(requested).toBeGreaterThan(authorized);
        expect(settlementAmount('void', authorized, requested)).toEqual({ ok: true, amount: authorized });
      }),
    );
  });

  it('a refund after a partial capture is bounded by the capture, not the authorization', () => {
    fc.assert(
      fc.property(positive, positive, positive, (authorized, asked, refund) => {
        const capture = settlementAmount('capture', authorized, Math.min(asked, authorized));
        if (!capture.ok) throw new Error('a capture within the authorization was refused');
        const planned = refundAmount(capture.amount, 0, refund);
        expect(planned.ok).toBe(refund <= capture.amount);
      }),
    );
  });

  it('a dispute through the API: only of a capture, never more than it, all of it by default', () => {
    fc.assert(
      fc.property(amount, fc.option(positive), (captured, requested) => {
        const dispute = disputeAmount(captured, requested);
        if (captured === 0) expect(dispute).toEqual({ ok: false, reason: 'not_captured' });
        else if (requested !== null && requested > captured)
          expect(dispute).toEqual({ ok: false, reason: 'exceeds_captured' });
        else expect(dispute).toEqual({ ok: true, amount: requested ?? captured });
      }),
    );
  });

  it("a processor's chargeback is capped at the capture, and only an amount in the payment's currency counts", () => {
    const currencyCode = fc.constantFrom('EUR', 'eur', 'USD', 'JPY');
    fc.assert(
      fc.property(
        positive,
        fc.option(amount, { nil: undefined }),
        fc.option(currencyCode, { nil: undefined }),
        (captured, reported, currency) => {
          const disputed = processorDisputeAmount(captured, 'EUR', { amount: reported, currency });
          expect(disputed).toBeLessThanOrEqual(captured);
          const counts = reported !== undefined && currency?.toUpperCase() === 'EUR';
          expect(disputed).toBe(counts ? Math.min(reported, captured) : captured);
        },
      ),
    );
  });

  it('dispute outcomes: won closes only an open dispute, lost also a won one, nothing reopens a lost one', () => {
    const statuses: DisputeStatus[] = ['needs_response', 'under_review', 'won', 'lost'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('won' as const, 'lost' as const), { maxLength: 6 }),
        fc.constantFrom(...statuses),
        (outcomes, start) => {
          let status = start;
          for (const outcome of outcomes) {
            const before = status;
            if (disputeClosableFrom(outcome).includes(status)) status = outcome;
            if (before === 'lost') expect(status).toBe('lost');
            if (outcome === 'won' && !openDisputeStatuses.includes(before)) expect(status).toBe(before);
            if (outcome === 'lost') expect(status).toBe('lost');
          }
        },
      ),
    );
  });
});
