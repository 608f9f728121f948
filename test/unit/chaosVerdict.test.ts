import { noTroubles, type PaymentRun } from '../chaos/client';
import { judge } from '../chaos/verify';

const run = (paymentId: string, status: string | undefined, finalHttp = 200): PaymentRun => ({
  paymentId,
  status,
  finalHttp,
  elapsedMs: 1,
  troubles: noTroubles(),
});
const row = (id: string, status: string, metadata: unknown = null) => ({ id, status, amount: 1999, metadata });

describe('npm run chaos: the verdict can fail', () => {
  it('passes a run where clients, database and acquirer agree', () => {
    const verdict = judge([row('pay_a', 'succeeded'), row('pay_b', 'failed')], new Map([['pay_a', 1999]]), [
      { card: 'approve', run: run('pay_a', 'succeeded') },
      { card: 'decline', run: run('pay_b', 'failed', 402) },
    ]);
    expect(verdict).toEqual({
      succeeded: 1,
      failed: 1,
      needsReview: 0,
      doubleCharges: [],
      lost: [],
      mismatches: [],
      stuck: [],
      final5xx: 0,
    });
  });

  it('finds a double charge, charges without a paid record, a stuck payment, a mismatch and a final 5xx', () => {
    const rows = [
      row('pay_double', 'succeeded'),
      row('pay_charged_failed', 'failed'),
      row('pay_review', 'failed', { review: { reason: 'reversal_unconfirmed' } }),
      row('pay_paid_uncharged', 'succeeded'),
      row('pay_processing', 'processing'),
    ];
    const net = new Map([
      ['pay_double', 3998],
      ['pay_charged_failed', 1999],
      ['pay_review', 1999],
      ['pay_orphan', 500],
    ]);
    const verdict = judge(rows, net, [
      { card: 'approve', run: run('pay_double', 'succeeded') },
      { card: 'approve', run: run('pay_charged_failed', 'succeeded') },
      { card: 'hold', run: run('pay_review', 'failed', 402) },
      { card: 'approve', run: run('pay_paid_uncharged', 'succeeded') },
      { card: 'approve', run: run('pay_processing', undefined, 503) },
    ]);
    expect(verdict.doubleCharges).toEqual(['pay_double charged 3998 of 1999']);
    expect(verdict.lost).toEqual([
      'pay_charged_failed failed, charged 1999',
      'pay_paid_uncharged succeeded, charged 0',
      'pay_orphan: charged 500, no payment',
    ]);
    expect(verdict.needsReview).toBe(1);
    expect(verdict.stuck).toHaveLength(2);
    expect(verdict.mismatches).toEqual(['pay_charged_failed: client heard succeeded, database has failed']);
    expect(verdict.final5xx).toBe(1);
  });
});
