import { dunningRetryAt, normalizeCardBrand, reattemptDecision } from '../../src/domain/billingRetry';

const hour = 3600_000;
const day = 24 * hour;

describe('dunning schedule', () => {
  it('retries 1, 3, 7 and 14 days after the failure, then is exhausted', () => {
    const failed = Date.parse('2027-01-01T00:00:00.000Z');
    expect([0, 1, 2, 3].map((i) => (dunningRetryAt(failed, i)! - failed) / day)).toEqual([1, 3, 7, 14]);
    expect(dunningRetryAt(failed, 4)).toBeNull();
  });
});

describe('per-card reattempt caps', () => {
  const now = Date.parse('2027-06-30T12:00:00.000Z');

  it('Visa: the 16th reattempt within 30 days is refused, older attempts do not count', () => {
    const fifteen = Array.from({ length: 15 }, (_, i) => now - i * day);
    expect(
      reattemptDecision({ brand: 'visa', previousReattemptsMs: fifteen.slice(0, 14), atMs: now, hardDecline: false }),
    ).toEqual({ allowed: true });
    expect(
      reattemptDecision({ brand: 'visa', previousReattemptsMs: fifteen, atMs: now, hardDecline: false }),
    ).toMatchObject({
      allowed: false,
      reason: 'network_cap',
      max: 15,
    });
    const old = fifteen.map((t) => t - 31 * day);
    expect(reattemptDecision({ brand: 'visa', previousReattemptsMs: old, atMs: now, hardDecline: false })).toEqual({
      allowed: true,
    });
  });

  it('Mastercard: 10 in 24 hours, then 35 in 30 days', () => {
    const tenToday = Array.from({ length: 10 }, (_, i) => now - i * hour);
    expect(
      reattemptDecision({ brand: 'mastercard', previousReattemptsMs: tenToday, atMs: now, hardDecline: false }),
    ).toMatchObject({
      allowed: false,
      max: 10,
    });
    expect(
      reattemptDecision({ brand: 'mastercard', previousReattemptsMs: tenToday, atMs: now + day, hardDecline: false }),
    ).toEqual({
      allowed: true,
    });
    const spread = Array.from({ length: 35 }, (_, i) => now - 2 * day - i * 16 * hour);
    expect(
      reattemptDecision({ brand: 'mastercard', previousReattemptsMs: spread, atMs: now, hardDecline: false }),
    ).toMatchObject({
      allowed: false,
      max: 35,
    });
    expect(
      reattemptDecision({ brand: 'mastercard', previousReattemptsMs: spread.slice(1), atMs: now, hardDecline: false }),
    ).toEqual({
      allowed: true,
    });
  });

  it('never reattempts a hard decline', () => {
    expect(reattemptDecision({ brand: 'visa', previousReattemptsMs: [], atMs: now, hardDecline: true })).toEqual({
      allowed: false,
      reason: 'hard_decline',
    });
  });

  it('normalizes brand names', () => {
    expect(normalizeCardBrand('VISA')).toBe('visa');
    expect(normalizeCardBrand('Master Card')).toBe('mastercard');
    expect(normalizeCardBrand('American Express')).toBe('amex');
    expect(normalizeCardBrand(undefined)).toBe('other');
  });
});
