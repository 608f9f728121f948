import {
  addMonthsClamped,
  billingDateAt,
  billingLabel,
  canTransition,
  firstCycleAtOrAfter,
  nextStatus,
  periodStartAt,
  subscriptionEvents,
  subscriptionStatuses,
  subscriptionTransitions,
  SubscriptionTransitionError,
  switchCharge,
} from '../../src/domain/billing';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => Date.parse(s);

describe('billing dates', () => {
  it('clamps Jan 31 to Feb 28 and returns to the anchor day afterwards', () => {
    const anchor = at('2027-01-31T10:00:00.000Z');
    const dates = Array.from({ length: 5 }, (_, n) => iso(billingDateAt(anchor, 'month', 1, n)));
    expect(dates).toEqual([
      '2027-01-31T10:00:00.000Z',
      '2027-02-28T10:00:00.000Z',
      '2027-03-31T10:00:00.000Z',
      '2027-04-30T10:00:00.000Z',
      '2027-05-31T10:00:00.000Z',
    ]);
  });

  it('uses Feb 29 in a leap year', () => {
    expect(iso(billingDateAt(at('2028-01-31T00:00:00.000Z'), 'month', 1, 1))).toBe('2028-02-29T00:00:00.000Z');
    expect(iso(addMonthsClamped(at('2028-02-29T00:00:00.000Z'), 12))).toBe('2029-02-28T00:00:00.000Z');
  });

  it('handles days, weeks, quarterly months and years, crossing year ends', () => {
    const anchor = at('2026-11-30T08:00:00.000Z');
    expect(iso(billingDateAt(anchor, 'day', 10, 1))).toBe('2026-12-10T08:00:00.000Z');
    expect(iso(billingDateAt(anchor, 'week', 2, 2))).toBe('2026-12-28T08:00:00.000Z');
    expect(iso(billingDateAt(anchor, 'month', 3, 1))).toBe('2027-02-28T08:00:00.000Z');
    expect(iso(billingDateAt(anchor, 'month', 3, 2))).toBe('2027-05-30T08:00:00.000Z');
    expect(iso(billingDateAt(anchor, 'year', 1, 2))).toBe('2028-11-30T08:00:00.000Z');
  });

  it('rejects bad interval counts and cycle indexes', () => {
    expect(() => billingDateAt(0, 'month', 0, 1)).toThrow(RangeError);
    expect(() => billingDateAt(0, 'month', 1, -1)).toThrow(RangeError);
  });

  it('finds the first cycle on or after a date (resume after a pause)', () => {
    const anchor = at('2027-01-15T00:00:00.000Z');
    expect(firstCycleAtOrAfter(anchor, 'month', 1, at('2027-03-20T00:00:00.000Z'))).toBe(3);
    expect(firstCycleAtOrAfter(anchor, 'month', 1, at('2027-03-15T00:00:00.000Z'))).toBe(2);
  });
});

describe('switch proration', () => {
  it('credits the unused share of the old price against the new price', () => {
    const start = at('2027-04-01T00:00:00.000Z');
    const end = at('2027-05-01T00:00:00.000Z');
    const mid = at('2027-04-16T00:00:00.000Z');
    expect(
      switchCharge({
        oldPeriodPrice: 1000,
        newPeriodPrice: 3000,
        periodStartMs: start,
        periodEndMs: end,
        switchAtMs: mid,
      }),
    ).toEqual({
      credit: 500,
      amountDue: 2500,
    });
  });

  it('never charges a negative amount and gives no credit after the period', () => {
    const start = 0;
    const end = 1000;
    expect(
      switchCharge({ oldPeriodPrice: 5000, newPeriodPrice: 100, periodStartMs: start, periodEndMs: end, switchAtMs: 0 })
        .amountDue,
    ).toBe(0);
    expect(
      switchCharge({
        oldPeriodPrice: 5000,
        newPeriodPrice: 100,
        periodStartMs: start,
        periodEndMs: end,
        switchAtMs: 2000,
      }),
    ).toEqual({
      credit: 0,
      amountDue: 100,
    });
  });
});

describe('subscription status transitions', () => {
  const expected: Record<string, Record<string, string>> = {
    trialing: {
      trial_converted: 'active',
      renewal_failed: 'past_due',
      paused: 'paused',
      canceled: 'canceled',
      switched: 'active',
    },
    active: {
      renewal_paid: 'active',
      renewal_failed: 'past_due',
      paused: 'paused',
      canceled: 'canceled',
      switched: 'active',
    },
    past_due: {
      dunning_retry_failed: 'past_due',
      dunning_recovered: 'active',
      dunning_exhausted: 'canceled',
      canceled: 'canceled',
      switched: 'active',
    },
    paused: { resumed: 'active', canceled: 'canceled' },
    canceled: {},
  };

  it('allows exactly the documented moves and refuses every other pair', () => {
    for (const from of subscriptionStatuses) {
      for (const event of subscriptionEvents) {
        const to = expected[from]![event];
        expect(canTransition(from, event)).toBe(to !== undefined);
        if (to) expect(nextStatus(from, event)).toBe(to);
        else expect(() => nextStatus(from, event)).toThrow(SubscriptionTransitionError);
      }
    }
    expect(subscriptionTransitions).toEqual(expected);
  });

  it('says why a move is refused', () => {
    expect(() => nextStatus('canceled', 'resumed')).toThrow('a canceled subscription cannot be resumed');
  });
});

describe('billing labels of memberships', () => {
  it.each([
    ['month', 1, 'monthly'],
    ['year', 1, 'yearly'],
    ['week', 1, 'weekly'],
    ['day', 1, 'daily'],
    ['month', 3, 'every-3-months'],
    ['week', 2, 'every-2-weeks'],
  ])('%s x %i is %s', (interval, count, label) => {
    expect(billingLabel(interval, count)).toBe(label);
  });
});

describe('the period a subscription is in (periodStartAt)', () => {
  const monthly = { anchorMs: at('2027-01-31T10:00:00.000Z'), interval: 'month' as const, intervalCount: 1 };
  const started = at('2027-01-20T08:00:00.000Z');
  it.each([
    // [label, next billing date, now, period start]
    ['before the first billing date (a trial): the start', '2027-01-31T10:00:00.000Z', '2027-01-25T00:00:00Z', started],
    ['in the first paid period: the anchor', '2027-02-28T10:00:00.000Z', '2027-02-10T00:00:00Z', monthly.anchorMs],
    [
      'months later, month ends clamped',
      '2027-05-31T10:00:00.000Z',
      '2027-05-01T00:00:00Z',
      at('2027-04-30T10:00:00Z'),
    ],
    // The April 30 date was skipped (next is May 31) and has not come yet: the period began Mar 31.
    ['a skipped date still ahead', '2027-05-31T10:00:00.000Z', '2027-04-10T00:00:00Z', at('2027-03-31T10:00:00Z')],
    [
      'past due (the next date has passed): the date before it',
      '2027-02-28T10:00:00.000Z',
      '2027-03-05T00:00:00Z',
      monthly.anchorMs,
    ],
  ])('%s', (_label, next, now, expected) => {
    expect(iso(periodStartAt(monthly, started, at(next), at(now)))).toBe(iso(expected));
  });
});
