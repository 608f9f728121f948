import { switchCharge } from '../../../src/domain/billing';
import { fc } from './fcConfig';

const price = fc.integer({ min: 0, max: 2_147_483_647 });
const dayMs = 24 * 3600 * 1000;
/** A period of a few days to several years, starting anywhere in 2000..2100. */
const period = fc
  .record({
    start: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
    length: fc.oneof(
      fc.integer({ min: 1, max: 10 * 365 * dayMs }),
      fc.constantFrom(28, 30, 31, 365, 366).map((d) => d * dayMs),
    ),
  })
  .map(({ start, length }) => ({ periodStartMs: start, periodEndMs: start + length }));

/** A switch anywhere in the period, with some before its start and after its end. */
const switchIn = (p: { periodStartMs: number; periodEndMs: number }) =>
  fc.oneof(
    fc.integer({ min: p.periodStartMs - 5 * dayMs, max: p.periodEndMs + 5 * dayMs }),
    fc.constantFrom(p.periodStartMs, p.periodStartMs + 1, p.periodEndMs - 1, p.periodEndMs),
  );

const aSwitch = period.chain((p) =>
  fc.record({ oldPeriodPrice: price, newPeriodPrice: price, switchAtMs: switchIn(p) }).map((s) => ({ ...p, ...s })),
);

/** The unused share of the old price, by time, rounded down: in exact integers. */
function referenceCredit(s: {
  oldPeriodPrice: number;
  periodStartMs: number;
  periodEndMs: number;
  switchAtMs: number;
}) {
  const length = BigInt(s.periodEndMs - s.periodStartMs);
  const remaining = BigInt(Math.min(Math.max(s.periodEndMs - s.switchAtMs, 0), s.periodEndMs - s.periodStartMs));
  return Number((BigInt(s.oldPeriodPrice) * remaining) / length);
}

describe('proration and credit laws', () => {
  it('the credit is the unused share of the old price, rounded down (exact integer reference)', () => {
    fc.assert(
      fc.property(aSwitch, (s) => {
        expect(switchCharge(s).credit).toBe(referenceCredit(s));
      }),
    );
  });

  it('credits never go negative nor past the old price; what is due never negative nor past the new price', () => {
    fc.assert(
      fc.property(aSwitch, (s) => {
        const { credit, amountDue } = switchCharge(s);
        expect(credit).toBeGreaterThanOrEqual(0);
        expect(credit).toBeLessThanOrEqual(s.oldPeriodPrice);
        expect(amountDue).toBeGreaterThanOrEqual(0);
        expect(amountDue).toBeLessThanOrEqual(s.newPeriodPrice);
        expect(Number.isSafeInteger(credit) && Number.isSafeInteger(amountDue)).toBe(true);
      }),
    );
  });

  it('a switch charges the price difference plus exactly the part of the old period used, never less than 0', () => {
    fc.assert(
      fc.property(aSwitch, (s) => {
        const { credit, amountDue } = switchCharge(s);
        const used = s.oldPeriodPrice - credit;
        expect(amountDue).toBe(Math.max(0, s.newPeriodPrice - s.oldPeriodPrice + used));
        // Sum of parts: the credited and the used parts make the old price.
        expect(credit + used).toBe(s.oldPeriodPrice);
      }),
    );
  });

  it('a later switch never earns more credit; at or before the start all of it, at or after the end none', () => {
    fc.assert(
      fc.property(aSwitch, fc.integer({ min: 0, max: 400 * dayMs }), (s, later) => {
        expect(switchCharge({ ...s, switchAtMs: s.switchAtMs + later }).credit).toBeLessThanOrEqual(
          switchCharge(s).credit,
        );
        expect(switchCharge({ ...s, switchAtMs: s.periodStartMs - later }).credit).toBe(s.oldPeriodPrice);
        expect(switchCharge({ ...s, switchAtMs: s.periodEndMs + later }).credit).toBe(0);
      }),
    );
  });

  it('splitting the remainder at any point: the credits of the two parts add up to the whole within one unit', () => {
    fc.assert(
      fc.property(aSwitch, fc.double({ min: 0, max: 1, noNaN: true }), (s, at) => {
        const start = Math.max(s.switchAtMs, s.periodStartMs);
        if (start >= s.periodEndMs) return;
        const middle = start + Math.floor((s.periodEndMs - start) * at);
        const whole = switchCharge({ ...s, switchAtMs: start }).credit;
        const second = switchCharge({ ...s, switchAtMs: middle }).credit;
        // The first part's credit, computed on its own: the old price's share of [start, middle).
        const length = BigInt(s.periodEndMs - s.periodStartMs);
        const first = Number((BigInt(s.oldPeriodPrice) * BigInt(middle - start)) / length);
        expect(whole - (first + second)).toBeGreaterThanOrEqual(0);
        expect(whole - (first + second)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('an empty or inverted period credits nothing', () => {
    fc.assert(
      fc.property(price, price, fc.integer(), fc.nat(), fc.integer(), (oldPrice, newPrice, end, back, at) => {
        const charge = switchCharge({
          oldPeriodPrice: oldPrice,
          newPeriodPrice: newPrice,
          periodStartMs: end + back,
          periodEndMs: end,
          switchAtMs: at,
        });
        expect(charge).toEqual({ credit: 0, amountDue: newPrice });
      }),
    );
  });
});
