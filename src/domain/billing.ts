/**
 * Pure subscription billing rules: billing dates and the status machine. No I/O, no clock: every
 * time is passed in as epoch milliseconds (UTC), so workflows can call these deterministically.
 */

export const billingIntervals = ['day', 'week', 'month', 'year'] as const;
export type BillingInterval = (typeof billingIntervals)[number];

const dayMs = 24 * 3600 * 1000;

function daysInMonthUtc(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * Adds `months` calendar months to `fromMs`, keeping the time of day and clamping the day to the
 * target month's last day (Jan 31 + 1 month = Feb 28/29).
 */
export function addMonthsClamped(fromMs: number, months: number): number {
  const from = new Date(fromMs);
  const totalMonths = from.getUTCFullYear() * 12 + from.getUTCMonth() + months;
  const year = Math.floor(totalMonths / 12);
  const monthIndex = totalMonths - year * 12;
  const day = Math.min(from.getUTCDate(), daysInMonthUtc(year, monthIndex));
  return Date.UTC(
    year,
    monthIndex,
    day,
    from.getUTCHours(),
    from.getUTCMinutes(),
    from.getUTCSeconds(),
    from.getUTCMilliseconds(),
  );
}

/**
 * The n-th billing date of a schedule anchored at `anchorMs` (n = 0 is the anchor itself).
 * Always computed from the anchor, never from the previous date, so the anchor day comes back
 * after a short month: Jan 31 → Feb 28 (or 29) → Mar 31 → Apr 30 → May 31.
 */
export function billingDateAt(anchorMs: number, interval: BillingInterval, intervalCount: number, n: number): number {
  if (!Number.isInteger(intervalCount) || intervalCount < 1)
    throw new RangeError('intervalCount must be a positive integer');
  if (!Number.isInteger(n) || n < 0) throw new RangeError('cycle index must be a non-negative integer');
  switch (interval) {
    case 'day':
      return anchorMs + n * intervalCount * dayMs;
    case 'week':
      return anchorMs + n * intervalCount * 7 * dayMs;
    case 'month':
      return addMonthsClamped(anchorMs, n * intervalCount);
    case 'year':
      return addMonthsClamped(anchorMs, n * intervalCount * 12);
  }
}

/** The first cycle index whose billing date is at or after `atMs` (used after a pause). */
export function firstCycleAtOrAfter(
  anchorMs: number,
  interval: BillingInterval,
  intervalCount: number,
  atMs: number,
  fromCycle = 0,
): number {
  let n = fromCycle;
  while (billingDateAt(anchorMs, interval, intervalCount, n) < atMs) n += 1;
  return n;
}

/**
 * Where the period the customer is in began, for display: the last billing date at or before
 * `nowMs` and before the next billing date, or the start when none has passed yet (a trial, a
 * first period). A skipped date that has not come yet does not start a period.
 */
export function periodStartAt(
  schedule: { anchorMs: number; interval: BillingInterval; intervalCount: number },
  startedAtMs: number,
  nextBillingAtMs: number,
  nowMs: number,
): number {
  let start = startedAtMs;
  for (let n = 0; ; n += 1) {
    const date = billingDateAt(schedule.anchorMs, schedule.interval, schedule.intervalCount, n);
    if (date >= nextBillingAtMs || date > nowMs) return start;
    start = Math.max(start, date);
  }
}

/** Length in ms of the period that starts at cycle n (months differ, so it is computed). */
export function periodLengthMs(anchorMs: number, interval: BillingInterval, intervalCount: number, n: number): number {
  return billingDateAt(anchorMs, interval, intervalCount, n + 1) - billingDateAt(anchorMs, interval, intervalCount, n);
}

/**
 * Proration of a switch made mid-period (documented decision): the unused share of the current
 * period's price, by time, is credited against the new option's full price; the new option's
 * period starts at the switch. Rounded down in the customer's favour never below zero.
 */
export function switchCharge(input: {
  oldPeriodPrice: number;
  newPeriodPrice: number;
  periodStartMs: number;
  periodEndMs: number;
  switchAtMs: number;
}): { credit: number; amountDue: number } {
  const { oldPeriodPrice, newPeriodPrice, periodStartMs, periodEndMs, switchAtMs } = input;
  const length = periodEndMs - periodStartMs;
  const remaining = Math.min(Math.max(periodEndMs - switchAtMs, 0), length);
  // price x milliseconds passes 2^53 (a year is 3.2e10 ms), where a float product is no longer
  // exact and a switch at the very start could credit one unit less than was paid: integers only.
  const credit = length > 0 ? Number((BigInt(oldPeriodPrice) * BigInt(remaining)) / BigInt(length)) : 0;
  return { credit, amountDue: Math.max(newPeriodPrice - credit, 0) };
}

export const subscriptionStatuses = ['trialing', 'active', 'past_due', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Everything that can move a subscription's status. */
export const subscriptionEvents = [
  'trial_converted', // trial ended and the first charge succeeded
  'renewal_paid',
  'renewal_failed',
  'dunning_retry_failed', // a dunning retry failed and retries remain
  'dunning_recovered',
  'dunning_exhausted',
  'paused',
  'resumed',
  'canceled',
  'switched',
] as const;
export type SubscriptionEvent = (typeof subscriptionEvents)[number];

/**
 * The complete transition table: every (status, event) pair that is allowed. Anything absent is
 * refused with a SubscriptionTransitionError (the API answers 409).
 */
export const subscriptionTransitions: Record<
  SubscriptionStatus,
  Partial<Record<SubscriptionEvent, SubscriptionStatus>>
> = {
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
    switched: 'active', // a paid switch settles the debt by charging the new option now
  },
  paused: {
    resumed: 'active',
    canceled: 'canceled',
  },
  canceled: {},
};

export class SubscriptionTransitionError extends Error {
  constructor(
    readonly from: SubscriptionStatus,
    readonly event: SubscriptionEvent,
  ) {
    super(`a ${from} subscription cannot be ${event.replace(/_/g, ' ')}`);
    this.name = 'SubscriptionTransitionError';
  }
}

export function canTransition(from: SubscriptionStatus, event: SubscriptionEvent): boolean {
  return subscriptionTransitions[from][event] !== undefined;
}

export function nextStatus(from: SubscriptionStatus, event: SubscriptionEvent): SubscriptionStatus {
  const to = subscriptionTransitions[from][event];
  if (!to) throw new SubscriptionTransitionError(from, event);
  return to;
}

/** Statuses whose subscription still has a running workflow and a card that may be charged. */
export const liveSubscriptionStatuses: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'paused'];

/** `month` x 1 → monthly; `month` x 3 → every-3-months. */
export function billingLabel(interval: string, intervalCount: number): string {
  const single: Record<string, string> = { day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly' };
  return intervalCount === 1 ? (single[interval] ?? interval) : `every-${intervalCount}-${interval}s`;
}
