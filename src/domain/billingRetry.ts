/**
 * Dunning (retrying a failed renewal) and the per-card retry budget that keeps us inside the
 * card networks' reattempt rules. Pure: history and times are passed in.
 */

const hourMs = 3600 * 1000;
const dayMs = 24 * hourMs;

/**
 * Retry offsets from the first failed renewal: +1 day, +3 days, +7 days, +14 days. After the last
 * retry fails the subscription is canceled (dunning exhausted), 14 days after the failure.
 */
export const dunningScheduleDays = [1, 3, 7, 14] as const;

/** When retry `retryIndex` (0-based) of a renewal that first failed at `failedAtMs` is due; null when exhausted. */
export function dunningRetryAt(failedAtMs: number, retryIndex: number): number | null {
  const days = dunningScheduleDays[retryIndex];
  return days === undefined ? null : failedAtMs + days * dayMs;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'other';

interface ReattemptCap {
  windowMs: number;
  max: number;
}

/**
 * Reattempt caps per network for one card (we count every attempt after the first decline of a
 * charge, per card, across all of this engine's subscriptions):
 * - Visa: at most 15 reattempts in 30 days (Visa's excessive-reattempt rule);
 * - Mastercard: at most 10 in 24 hours and 35 in 30 days (Mastercard's excessive-attempt rule);
 * - Amex, Discover and others: we apply Visa's 15 in 30 days as a conservative default.
 * Hard declines (do-not-retry codes, Visa category 1, Mastercard advice codes 03/21) get no
 * reattempt at all.
 */
export const reattemptCaps: Record<CardBrand, readonly ReattemptCap[]> = {
  visa: [{ windowMs: 30 * dayMs, max: 15 }],
  mastercard: [
    { windowMs: 24 * hourMs, max: 10 },
    { windowMs: 30 * dayMs, max: 35 },
  ],
  amex: [{ windowMs: 30 * dayMs, max: 15 }],
  discover: [{ windowMs: 30 * dayMs, max: 15 }],
  other: [{ windowMs: 30 * dayMs, max: 15 }],
};

export function normalizeCardBrand(brand: string | null | undefined): CardBrand {
  const value = (brand ?? '').toLowerCase().replace(/[^a-z]/g, '');
  if (value === 'visa') return 'visa';
  if (value === 'mastercard' || value === 'mc') return 'mastercard';
  if (value === 'amex' || value === 'americanexpress') return 'amex';
  if (value === 'discover') return 'discover';
  return 'other';
}

export type RetryDecision =
  { allowed: true } | { allowed: false; reason: 'hard_decline' | 'network_cap'; windowMs?: number; max?: number };

/**
 * May this card be reattempted at `atMs`, given the times of its earlier reattempts?
 * `hardDecline` is the processor's classification of the last decline.
 */
export function reattemptDecision(input: {
  brand: CardBrand;
  previousReattemptsMs: readonly number[];
  atMs: number;
  hardDecline: boolean;
}): RetryDecision {
  if (input.hardDecline) return { allowed: false, reason: 'hard_decline' };
  for (const cap of reattemptCaps[input.brand]) {
    const inWindow = input.previousReattemptsMs.filter((t) => t > input.atMs - cap.windowMs && t <= input.atMs).length;
    if (inWindow >= cap.max) return { allowed: false, reason: 'network_cap', windowMs: cap.windowMs, max: cap.max };
  }
  return { allowed: true };
}

/** The longest window any cap looks back over; older attempts can be forgotten. */
export const longestReattemptWindowMs = 30 * dayMs;
