import {
  computeCheckoutTotals,
  maxAmount,
  TotalsError,
  type TotalsPromotion,
} from '../../../src/domain/checkoutTotals';
import { percentageOf } from '../../../src/domain/money';
import { fc } from './fcConfig';

const line = fc.record({ unitAmount: fc.integer({ min: 0, max: 200_000 }), quantity: fc.integer({ min: 1, max: 50 }) });
const lines = fc.array(line, { maxLength: 8 });
const percentage = fc.record({
  discountType: fc.constant('percentage' as const),
  percentBasisPoints: fc.oneof(fc.integer({ min: 0, max: 10000 }), fc.constantFrom(0, 5000, 10000)),
});
const fixed = fc.record({
  discountType: fc.constant('fixed_amount' as const),
  amountOff: fc.oneof(fc.integer({ min: 0, max: 500_000 }), fc.integer({ min: 0, max: 20_000_000 })),
  currency: fc.constantFrom('EUR', 'eur'),
});
const promotions = fc.array(fc.oneof(percentage, fixed), { maxLength: 5 });

/** Lines and promotions in another order: the same multiset. */
const permutationOf = <T>(items: T[]) =>
  fc.array(fc.nat(), { minLength: items.length, maxLength: items.length }).map((keys) =>
    items
      .map((item, i) => ({ item, key: keys[i]! }))
      .sort((a, b) => a.key - b.key)
      .map(({ item }) => item),
  );

describe('checkout totals laws', () => {
  it('the parts add up: lines to the subtotal, discounts to the discount total, discount total plus total to the subtotal', () => {
    fc.assert(
      fc.property(lines, promotions, (ls, ps) => {
        const totals = computeCheckoutTotals('EUR', ls, ps);
        expect(totals.lineSubtotals).toEqual(ls.map((l) => l.unitAmount * l.quantity));
        expect(totals.subtotal).toBe(totals.lineSubtotals.reduce((sum, a) => sum + a, 0));
        expect(totals.discounts.reduce((sum, d) => sum + d, 0)).toBe(totals.discountTotal);
        expect(totals.discountTotal + totals.total).toBe(totals.subtotal);
      }),
    );
  });

  it('never negative: no discount below 0, the discount never past the subtotal, the total never below 0', () => {
    fc.assert(
      fc.property(lines, promotions, (ls, ps) => {
        const totals = computeCheckoutTotals('EUR', ls, ps);
        for (const d of totals.discounts) expect(d).toBeGreaterThanOrEqual(0);
        expect(totals.discountTotal).toBeLessThanOrEqual(totals.subtotal);
        expect(totals.total).toBeGreaterThanOrEqual(0);
        for (const value of [totals.subtotal, totals.total, ...totals.discounts])
          expect(Number.isSafeInteger(value)).toBe(true);
      }),
    );
  });

  it('each promotion applies to what is left: a percentage is its share rounded half up, a fixed amount at most what is left', () => {
    fc.assert(
      fc.property(lines, promotions, (ls, ps) => {
        const totals = computeCheckoutTotals('EUR', ls, ps);
        let remaining = totals.subtotal;
        ps.forEach((p, i) => {
          const expected =
            p.discountType === 'percentage'
              ? percentageOf(remaining, p.percentBasisPoints)
              : Math.min(p.amountOff, remaining);
          expect(totals.discounts[i]).toBe(expected);
          remaining -= expected;
        });
      }),
    );
  });

  it('100% off leaves 0, 0% off and an amount of 0 off change nothing, whatever comes before', () => {
    fc.assert(
      fc.property(lines, promotions, (ls, ps) => {
        const before = computeCheckoutTotals('EUR', ls, ps).total;
        const full: TotalsPromotion = { discountType: 'percentage', percentBasisPoints: 10000 };
        const none: TotalsPromotion[] = [
          { discountType: 'percentage', percentBasisPoints: 0 },
          { discountType: 'fixed_amount', amountOff: 0, currency: 'EUR' },
        ];
        expect(computeCheckoutTotals('EUR', ls, [...ps, full]).total).toBe(0);
        expect(computeCheckoutTotals('EUR', ls, [...ps, ...none]).total).toBe(before);
      }),
    );
  });

  it('more promotions never raise the total', () => {
    fc.assert(
      fc.property(lines, promotions, fc.oneof(percentage, fixed), (ls, ps, extra) => {
        expect(computeCheckoutTotals('EUR', ls, [...ps, extra]).total).toBeLessThanOrEqual(
          computeCheckoutTotals('EUR', ls, ps).total,
        );
      }),
    );
  });

  it('the order of the lines never matters', () => {
    fc.assert(
      fc.property(
        lines.chain((ls) => fc.tuple(fc.constant(ls), permutationOf(ls))),
        promotions,
        ([ls, shuffled], ps) => {
          const a = computeCheckoutTotals('EUR', ls, ps);
          const b = computeCheckoutTotals('EUR', shuffled, ps);
          expect([b.subtotal, b.discounts, b.total]).toEqual([a.subtotal, a.discounts, a.total]);
        },
      ),
    );
  });

  it('fixed amounts alone are order independent: the total is the subtotal less their sum, floored at 0', () => {
    const fixedOnly = fc.array(fixed, { maxLength: 5 });
    fc.assert(
      fc.property(
        lines,
        fixedOnly.chain((ps) => fc.tuple(fc.constant(ps), permutationOf(ps))),
        (ls, [ps, shuffled]) => {
          const subtotal = computeCheckoutTotals('EUR', ls).subtotal;
          const expected = Math.max(0, subtotal - ps.reduce((sum, p) => sum + p.amountOff, 0));
          expect(computeCheckoutTotals('EUR', ls, ps).total).toBe(expected);
          expect(computeCheckoutTotals('EUR', ls, shuffled).total).toBe(expected);
        },
      ),
    );
  });

  it('percentages alone: any order gives the same total within one minor unit per promotion', () => {
    const percentagesOnly = fc.array(percentage, { maxLength: 5 });
    fc.assert(
      fc.property(
        lines,
        percentagesOnly.chain((ps) => fc.tuple(fc.constant(ps), permutationOf(ps))),
        (ls, [ps, shuffled]) => {
          const a = computeCheckoutTotals('EUR', ls, ps).total;
          const b = computeCheckoutTotals('EUR', ls, shuffled).total;
          expect(Math.abs(a - b)).toBeLessThanOrEqual(ps.length);
        },
      ),
    );
  });

  it('a fixed amount in another currency, or a total past the column, is refused, never applied or wrapped', () => {
    fc.assert(
      fc.property(lines, fc.constantFrom('USD', 'JPY'), fc.integer({ min: 1, max: 1000 }), (ls, other, off) => {
        expect(() =>
          computeCheckoutTotals('EUR', ls, [{ discountType: 'fixed_amount', amountOff: off, currency: other }]),
        ).toThrow(TotalsError);
        expect(() =>
          computeCheckoutTotals('EUR', [...ls, { unitAmount: maxAmount, quantity: 1 }, { unitAmount: 1, quantity: 1 }]),
        ).toThrow(TotalsError);
      }),
    );
  });
});
