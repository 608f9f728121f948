import {
  defaultWindows,
  planQuotas,
  rateLimitHeaders,
  secondsUntil,
  tightestWindow,
  windowDurations,
  windowLimits,
  type WindowUsage,
} from '../../src/http/rate-limit/quotas';

describe('rate limit quotas (docs/api-keys.md, rate limits)', () => {
  it('has the numbers of docs/api-keys.md: Standard 100/min burst 150, Premium 500/min burst 750', () => {
    expect(planQuotas.standard).toEqual({ perMinute: 100, burst: 150 });
    expect(planQuotas.premium).toEqual({ perMinute: 500, burst: 750 });
  });

  it('admits the burst in one minute and the per-minute rate on average over five', () => {
    expect(windowDurations(defaultWindows)).toEqual({ burst: 60_000, sustained: 300_000 });
    expect(windowLimits(planQuotas.standard, defaultWindows)).toEqual({ burst: 150, sustained: 500 });
    expect(windowLimits(planQuotas.premium, defaultWindows)).toEqual({ burst: 750, sustained: 2500 });
  });

  it('rounds Retry-After up to whole seconds, never below 1', () => {
    const now = 1_000_000;
    expect(secondsUntil(new Date(now + 1), 60_000, now)).toBe(1);
    expect(secondsUntil(new Date(now + 1500), 60_000, now)).toBe(2);
    expect(secondsUntil(new Date(now - 10), 60_000, now)).toBe(1);
    expect(secondsUntil(undefined, 60_000, now)).toBe(60);
  });

  it('reports the window with the fewest requests left', () => {
    const now = 0;
    const burst: WindowUsage = { name: 'burst', limit: 150, used: 20, windowMs: 60_000, resetTime: new Date(30_000) };
    const sustained: WindowUsage = {
      name: 'sustained',
      limit: 500,
      used: 490,
      windowMs: 300_000,
      resetTime: new Date(200_000),
    };
    expect(tightestWindow([burst, sustained])).toBe(sustained);
    expect(tightestWindow([{ ...burst, used: 149 }, sustained])).toMatchObject({ name: 'burst' });
    expect(rateLimitHeaders([burst, sustained], { burst: 150, sustained: 500 }, defaultWindows, now)).toEqual({
      'RateLimit-Policy': '150;w=60, 500;w=300',
      'RateLimit-Limit': '500',
      'RateLimit-Remaining': '10',
      'RateLimit-Reset': '200',
    });
  });

  it('breaks a tie in requests left by the later reset', () => {
    const a: WindowUsage = { name: 'burst', limit: 10, used: 10, windowMs: 1000, resetTime: new Date(500) };
    const b: WindowUsage = { name: 'sustained', limit: 50, used: 50, windowMs: 5000, resetTime: new Date(4000) };
    expect(tightestWindow([a, b])).toBe(b);
    expect(() => tightestWindow([])).toThrow();
  });
});
