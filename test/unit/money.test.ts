import { currencyExponent, formatMinorUnits, MoneyError, percentageOf, toMinorUnits } from '../../src/domain/money';

describe('money in integer minor units', () => {
  it.each([
    ['JPY', 0],
    ['EUR', 2],
    ['USD', 2],
    ['KWD', 3],
    ['BHD', 3],
  ])('%s has ISO 4217 exponent %i', (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });

  it.each([
    ['12.34', 'EUR', 1234],
    ['12', 'EUR', 1200],
    ['0.1', 'EUR', 10],
    ['1500', 'JPY', 1500],
    ['1.234', 'KWD', 1234],
    ['0.07', 'USD', 7],
  ])('parses %s %s as %i minor units', (decimal, currency, minor) => {
    expect(toMinorUnits(decimal, currency)).toBe(minor);
  });

  it('rejects more decimals than the currency has, and non-numbers', () => {
    expect(() => toMinorUnits('1.5', 'JPY')).toThrow(MoneyError);
    expect(() => toMinorUnits('1.234', 'EUR')).toThrow(MoneyError);
    expect(() => toMinorUnits('-1', 'EUR')).toThrow(MoneyError);
    expect(() => toMinorUnits('1e3', 'EUR')).toThrow(MoneyError);
  });

  it('formats minor units back to decimals', () => {
    expect(formatMinorUnits(1234, 'EUR')).toBe('12.34');
    expect(formatMinorUnits(5, 'EUR')).toBe('0.05');
    expect(formatMinorUnits(1500, 'JPY')).toBe('1500');
    expect(formatMinorUnits(1, 'KWD')).toBe('0.001');
    expect(() => formatMinorUnits(1.5, 'EUR')).toThrow(MoneyError);
  });

  it('takes percentages in basis points, rounding half up, with integers only', () => {
    expect(percentageOf(1000, 1000)).toBe(100); // 10% of 10.00
    expect(percentageOf(999, 1500)).toBe(150); // 149.85 -> 150
    expect(percentageOf(333, 5000)).toBe(167); // 166.5 -> 167
    expect(percentageOf(1, 10000)).toBe(1);
    expect(() => percentageOf(100, 10001)).toThrow(MoneyError);
    expect(() => percentageOf(100, 12.5)).toThrow(MoneyError);
  });
});
