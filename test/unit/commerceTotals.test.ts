import { computeCheckoutTotals, maxAmount, TotalsError } from '../../src/domain/checkoutTotals';

describe('checkout totals in integer minor units', () => {
  it('sums multi-quantity lines', () => {
    const totals = computeCheckoutTotals('EUR', [
      { unitAmount: 1999, quantity: 3 },
      { unitAmount: 250, quantity: 1 },
    ]);
    expect(totals).toEqual({
      lineSubtotals: [5997, 250],
      subtotal: 6247,
      discounts: [],
      discountTotal: 0,
      total: 6247,
    });
  });

  it('takes a percentage in basis points, rounded half up to the minor unit', () => {
    // 15% of 6247 = 937.05 -> 937; 12.5% of 1001 = 125.125 -> 125; 50% of 1 = 0.5 -> 1
    expect(
      computeCheckoutTotals(
        'EUR',
        [{ unitAmount: 6247, quantity: 1 }],
        [{ discountType: 'percentage', percentBasisPoints: 1500 }],
      ),
    ).toMatchObject({
      discountTotal: 937,
      total: 5310,
    });
    expect(
      computeCheckoutTotals(
        'EUR',
        [{ unitAmount: 1001, quantity: 1 }],
        [{ discountType: 'percentage', percentBasisPoints: 1250 }],
      ).discountTotal,
    ).toBe(125);
    expect(
      computeCheckoutTotals(
        'EUR',
        [{ unitAmount: 1, quantity: 1 }],
        [{ discountType: 'percentage', percentBasisPoints: 5000 }],
      ).discountTotal,
    ).toBe(1);
  });

  it('takes a fixed amount in the session currency and never goes below zero', () => {
    expect(
      computeCheckoutTotals(
        'USD',
        [{ unitAmount: 1000, quantity: 2 }],
        [{ discountType: 'fixed_amount', amountOff: 500, currency: 'USD' }],
      ),
    ).toMatchObject({
      subtotal: 2000,
      discountTotal: 500,
      total: 1500,
    });
    expect(
      computeCheckoutTotals(
        'USD',
        [{ unitAmount: 300, quantity: 1 }],
        [{ discountType: 'fixed_amount', amountOff: 500, currency: 'USD' }],
      ),
    ).toMatchObject({
      discountTotal: 300,
      total: 0,
    });
    expect(() =>
      computeCheckoutTotals(
        'USD',
        [{ unitAmount: 300, quantity: 1 }],
        [{ discountType: 'fixed_amount', amountOff: 100, currency: 'EUR' }],
      ),
    ).toThrow(TotalsError);
  });

  it('applies several promotions in order, each to what is left', () => {
    const totals = computeCheckoutTotals(
      'EUR',
      [{ unitAmount: 10000, quantity: 1 }],
      [
        { discountType: 'fixed_amount', amountOff: 2000, currency: 'EUR' },
        { discountType: 'percentage', percentBasisPoints: 1000 },
      ],
    );
    expect(totals).toMatchObject({ discounts: [2000, 800], discountTotal: 2800, total: 7200 });
  });

  it('handles a zero-decimal currency (JPY): amounts are whole yen', () => {
    const totals = computeCheckoutTotals(
      'JPY',
      [{ unitAmount: 1500, quantity: 3 }],
      [{ discountType: 'percentage', percentBasisPoints: 333 }],
    );
    // 3.33% of 4500 = 149.85 yen -> 150
    expect(totals).toMatchObject({ subtotal: 4500, discountTotal: 150, total: 4350 });
    expect(Number.isInteger(totals.total)).toBe(true);
  });

  it('refuses quantities below 1, fractional amounts and totals beyond the column range', () => {
    expect(() => computeCheckoutTotals('EUR', [{ unitAmount: 100, quantity: 0 }])).toThrow(TotalsError);
    expect(() => computeCheckoutTotals('EUR', [{ unitAmount: 10.5, quantity: 1 }])).toThrow();
    expect(() => computeCheckoutTotals('EUR', [{ unitAmount: maxAmount, quantity: 2 }])).toThrow(TotalsError);
  });
});
