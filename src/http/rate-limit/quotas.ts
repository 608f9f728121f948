/**
 * Per-account quotas (docs/api-keys.md, rate limits), and the pure arithmetic of the two windows that enforce them.
 *
 * "100 per minute, burst 150" is enforced with two fixed windows per account:
 * - the burst window (1 minute) admits at most `burst` requests, so a client may spend up to
 *   150 (Standard) in any one minute;
 * - the sustained window (5 minutes) admits at most 5 x `perMinute`, so over time the average
 *   stays at 100 per minute: a client that bursts must slow down before the five minutes end.
 * A request must fit in both windows.
 */
export type Plan = 'standard' | 'premium';

export interface PlanQuota {
  perMinute: number;
  burst: number;
}

export const planQuotas: Record<Plan, PlanQuota> = {
  standard: { perMinute: 100, burst: 150 },
  premium: { perMinute: 500, burst: 750 },
};

/** The length of a "minute" (tests shrink it) and of the sustained window in such minutes. */
export interface RateWindows {
  minuteMs: number;
  sustainedMinutes: number;
}

export const defaultWindows: RateWindows = { minuteMs: 60_000, sustainedMinutes: 5 };

export type WindowName = 'burst' | 'sustained';

/** How long each window lasts. */
export function windowDurations(windows: RateWindows): Record<WindowName, number> {
  return { burst: windows.minuteMs, sustained: windows.minuteMs * windows.sustainedMinutes };
}

/** How many requests each window admits for a quota. */
export function windowLimits(quota: PlanQuota, windows: RateWindows): Record<WindowName, number> {
  return { burst: quota.burst, sustained: quota.perMinute * windows.sustainedMinutes };
}

/** One window's count for the current request, as the rate limiter reports it. */
export interface WindowUsage {
  name: WindowName;
  limit: number;
  used: number;
  windowMs: number;
  resetTime: Date | undefined;
}

/** Whole seconds until a window resets; at least 1, so a client never retries at once. */
export function secondsUntil(resetTime: Date | undefined, windowMs: number, now: number): number {
  const ms = resetTime ? resetTime.getTime() - now : windowMs;
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The window closest to refusing: fewest requests left, then the later reset. */
export function tightestWindow(usages: WindowUsage[]): WindowUsage {
  if (usages.length === 0) throw new Error('tightestWindow needs at least one window');
  return usages.reduce((tightest, usage) => {
    const left = Math.max(usage.limit - usage.used, 0);
    const tightestLeft = Math.max(tightest.limit - tightest.used, 0);
    if (left !== tightestLeft) return left < tightestLeft ? usage : tightest;
    return (usage.resetTime?.getTime() ?? 0) > (tightest.resetTime?.getTime() ?? 0) ? usage : tightest;
  });
}

/**
 * The IETF `RateLimit-*` headers (draft 6, the shape express-rate-limit emits) for the tightest
 * window, with both windows in `RateLimit-Policy`.
 */
export function rateLimitHeaders(
  usages: WindowUsage[],
  policy: Record<WindowName, number>,
  windows: RateWindows,
  now: number,
): Record<string, string> {
  const tightest = tightestWindow(usages);
  const durations = windowDurations(windows);
  return {
    'RateLimit-Policy': `${policy.burst};w=${durations.burst / 1000}, ${policy.sustained};w=${durations.sustained / 1000}`,
    'RateLimit-Limit': String(tightest.limit),
    'RateLimit-Remaining': String(Math.max(tightest.limit - tightest.used, 0)),
    'RateLimit-Reset': String(secondsUntil(tightest.resetTime, tightest.windowMs, now)),
  };
}
