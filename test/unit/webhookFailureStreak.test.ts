import { failingTooLong, streakOf } from '../../src/webhooks/failureStreak';

const hour = 3600 * 1000;
const day = 24 * hour;
const t0 = new Date('2030-01-10T00:00:00Z');
const at = (offsetMs: number) => new Date(t0.getTime() + offsetMs);

describe('webhook failure streaks', () => {
  it.each([
    ['no streak yet', { failingSince: null, lastFailedAt: null }, at(0), { since: at(0), restarted: true }],
    [
      'a retry 6 h after the last failure continues the streak',
      { failingSince: at(-2 * day), lastFailedAt: at(-6 * hour) },
      at(0),
      { since: at(-2 * day), restarted: false },
    ],
    [
      '12 h after the last failure still continues it',
      { failingSince: at(-2 * day), lastFailedAt: at(-12 * hour) },
      at(0),
      { since: at(-2 * day), restarted: false },
    ],
    [
      'a failure after an idle period starts a new streak',
      { failingSince: at(-30 * day), lastFailedAt: at(-29 * day) },
      at(0),
      { since: at(0), restarted: true },
    ],
    [
      'a streak recorded without a last failure starts again',
      { failingSince: at(-5 * day), lastFailedAt: null },
      at(0),
      { since: at(0), restarted: true },
    ],
    [
      'a concurrent failure scheduled before the latest one continues it',
      { failingSince: at(-1 * day), lastFailedAt: at(1000) },
      at(0),
      { since: at(-1 * day), restarted: false },
    ],
  ])('%s', (_name, endpoint, failedAt, expected) => {
    expect(streakOf(endpoint, failedAt)).toEqual(expected);
  });

  it('counts as failing too long only with a 3-day streak whose latest failure is recent', () => {
    expect(failingTooLong({ failingSince: at(-3 * day), lastFailedAt: at(0) }, at(0))).toBe(true);
    expect(failingTooLong({ failingSince: at(-3 * day + 1), lastFailedAt: at(0) }, at(0))).toBe(false);
    expect(failingTooLong({ failingSince: at(-10 * day), lastFailedAt: at(-13 * hour) }, at(0))).toBe(false);
    expect(failingTooLong({ failingSince: null, lastFailedAt: at(0) }, at(0))).toBe(false);
    expect(failingTooLong({ failingSince: at(-5 * day), lastFailedAt: null }, at(0))).toBe(false);
  });
});
