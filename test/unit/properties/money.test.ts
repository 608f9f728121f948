import {
  assertMinorUnits,
  currencyExponent,
  formatMinorUnits,
  MoneyError,
  percentageOf,
  supportedCurrencies,
  toMinorUnits,
} from '../../../src/domain/money';
import { fc } from './fcConfig';

/** ISO 4217 minor units (the published table), for every supported currency and every non-2 one the engine lists. */
// prettier-ignore
const iso4217MinorUnits: Record<string, number> = {
  AED: 2, AUD: 2, BGN: 2, BHD: 3, BRL: 2, CAD: 2, CHF: 2, CLP: 0, CNY: 2, CZK: 2, DKK: 2, EUR: 2, GBP: 2,
  HKD: 2, HUF: 2, IDR: 2, ILS: 2, INR: 2, ISK: 0, JOD: 3, JPY: 0, KRW: 0, KWD: 3, MXN: 2, MYR: 2, NOK: 2,
  NZD: 2, OMR: 3, PHP: 2, PLN: 2, RON: 2, SAR: 2, SEK: 2, SGD: 2, THB: 2, TND: 3, TRY: 2, TWD: 2, UAH: 2,
  USD: 2, VND: 0, ZAR: 2,
  BIF: 0, DJF: 0, GNF: 0, KMF: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  IQD: 3, LYD: 3, CLF: 4, UYW: 4,
};

const currencies = Object.keys(iso4217MinorUnits);
const currency = fc.constantFrom(...currencies);
const minorUnits = fc.maxSafeNat();
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** Reference formatting with BigInt: no floating point anywhere. */
function referenceFormat(amount: bigint, exponent: number): string {
  if (exponent === 0) return amount.toString();
  const scale = 10n ** BigInt(exponent);
  return `${amount / scale}.${(amount % scale).toString().padStart(exponent, '0')}`;
}

describe('money laws', () => {
  it('the exponent table agrees with ISO 4217 for every currency it knows, in any letter case', () => {
    for (const code of supportedCurrencies) expect(iso4217MinorUnits).toHaveProperty(code);
    fc.assert(
      fc.property(currency, fc.boolean(), (code, lower) => {
        expect(currencyExponent(lower ? code.toLowerCase() : code)).toBe(iso4217MinorUnits[code]);
      }),
    );
  });

  it('formatting then parsing gives back the amount (round trip), for every currency', () => {
    fc.assert(
      fc.property(currency, minorUnits, (code, amount) => {
        expect(toMinorUnits(formatMinorUnits(amount, code), code)).toBe(amount);
      }),
    );
  });

  it('formatting is exact: the integer digits, a point and exactly <exponent> fraction digits', () => {
    fc.assert(
      fc.property(currency, minorUnits, (code, amount) => {
        expect(formatMinorUnits(amount, code)).toBe(referenceFormat(BigInt(amount), iso4217MinorUnits[code]!));
      }),
    );
  });

  it('parsing a decimal with at most <exponent> fraction digits is exact, or refused past the safe range', () => {
    const decimal = fc.record({
      code: currency,
      whole: fc.stringMatching(/^\d{1,18}$/),
      fraction: fc.stringMatching(/^\d{0,4}$/),
    });
    fc.assert(
      fc.property(decimal, ({ code, whole, fraction }) => {
        const exponent = iso4217MinorUnits[code]!;
        const text = fraction ? `${whole}.${fraction}` : whole;
        if (fraction.length > exponent) {
          expect(() => toMinorUnits(text, code)).toThrow(MoneyError);
          return;
        }
        const exact = BigInt(whole + fraction.padEnd(exponent, '0'));
        if (exact > maxSafe) {
          expect(() => toMinorUnits(text, code)).toThrow(MoneyError);
          return;
        }
        expect(toMinorUnits(text, code)).toBe(Number(exact));
        // Parsing then formatting gives the canonical spelling of the same amount.
        expect(formatMinorUnits(toMinorUnits(text, code), code)).toBe(referenceFormat(exact, exponent));
      }),
    );
  });

  it('never a float: non-integers, negatives and unsafe integers are refused, not rounded', () => {
    const notMinorUnits = fc.oneof(
      fc.double({ noNaN: false }).filter((x) => !Number.isSafeInteger(x) || x < 0),
      fc.integer({ max: -1 }),
      fc.constantFrom(Number.MAX_SAFE_INTEGER + 1, 2 ** 60, Infinity, -0.5, 0.1),
    );
    fc.assert(
      fc.property(notMinorUnits, currency, (amount, code) => {
        expect(() => assertMinorUnits(amount)).toThrow(MoneyError);
        expect(() => formatMinorUnits(amount, code)).toThrow(MoneyError);
        expect(() => percentageOf(amount, 100)).toThrow(MoneyError);
      }),
    );
  });

  it('a percentage is the exact product rounded half up (integer reference)', () => {
    fc.assert(
      fc.property(minorUnits, fc.integer({ min: 0, max: 10000 }), (amount, basisPoints) => {
        const exact = (BigInt(amount) * BigInt(basisPoints) + 5000n) / 10000n;
        expect(percentageOf(amount, basisPoints)).toBe(Number(exact));
      }),
    );
  });

  it('a percentage and its complement split the whole: they add up to it, or one more only on two exact halves', () => {
    fc.assert(
      fc.property(minorUnits, fc.integer({ min: 0, max: 10000 }), (amount, basisPoints) => {
        const sum = percentageOf(amount, basisPoints) + percentageOf(amount, 10000 - basisPoints);
        const twoHalves = (BigInt(amount) * BigInt(basisPoints)) % 10000n === 5000n;
        expect(sum).toBe(twoHalves ? amount + 1 : amount);
      }),
    );
  });

  it('a percentage is monotone in the amount and in the rate, and stays within 0..amount', () => {
    fc.assert(
      fc.property(minorUnits, minorUnits, fc.integer({ min: 0, max: 10000 }), (a, b, basisPoints) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(percentageOf(low, basisPoints)).toBeLessThanOrEqual(percentageOf(high, basisPoints));
        expect(percentageOf(high, basisPoints)).toBeLessThanOrEqual(high);
        expect(percentageOf(high, 0)).toBe(0);
        expect(percentageOf(high, 10000)).toBe(high);
      }),
    );
  });
});
