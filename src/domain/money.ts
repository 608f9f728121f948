/**
 * Money is an integer count of minor units plus an ISO 4217 currency. Never a float.
 * Exponents below are ISO 4217's; currencies not listed have exponent 2.
 */
const zeroDecimal = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const threeDecimal = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);
const fourDecimal = new Set(['CLF', 'UYW']);

/** Currencies the engine accepts: ISO 4217 active codes in common use. */
export const supportedCurrencies = [
  'AED',
  'AUD',
  'BGN',
  'BHD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'ISK',
  'JOD',
  'JPY',
  'KRW',
  'KWD',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'OMR',
  'PHP',
  'PLN',
  'RON',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TND',
  'TRY',
  'TWD',
  'UAH',
  'USD',
  'VND',
  'ZAR',
] as const;

export type CurrencyCode = (typeof supportedCurrencies)[number];

export function isSupportedCurrency(code: string): code is CurrencyCode {
  return (supportedCurrencies as readonly string[]).includes(code);
}

export function currencyExponent(currency: string): number {
  const code = currency.toUpperCase();
  if (zeroDecimal.has(code)) return 0;
  if (threeDecimal.has(code)) return 3;
  if (fourDecimal.has(code)) return 4;
  return 2;
}

export class MoneyError extends Error {}

/** Asserts an amount is a safe non-negative integer of minor units. */
export function assertMinorUnits(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new MoneyError(`amount must be a non-negative integer of minor units, got ${amount}`);
  }
  return amount;
}

/** Parses a decimal string ("12.34") into minor units without ever using floating point. */
export function toMinorUnits(decimal: string, currency: string): number {
  const exponent = currencyExponent(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) throw new MoneyError(`not a decimal amount: ${decimal}`);
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    throw new MoneyError(`${currency} allows ${exponent} decimal places, got ${decimal}`);
  }
  return assertMinorUnits(Number(whole + fraction.padEnd(exponent, '0')));
}

/** Formats minor units as a decimal string for display ("1234" EUR -> "12.34"). */
export function formatMinorUnits(amount: number, currency: string): string {
  assertMinorUnits(amount);
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(amount);
  const digits = String(amount).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * A percentage of an amount, with the percentage given in basis points (1% = 100),
 * rounded half up to the nearest minor unit using integer arithmetic only.
 */
export function percentageOf(amount: number, basisPoints: number): number {
  assertMinorUnits(amount);
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0 || basisPoints > 10000) {
    throw new MoneyError(`basis points must be an integer in 0..10000, got ${basisPoints}`);
  }
  // amount * basisPoints passes 2^53 from about 9 * 10^11 minor units on, and a float product is
  // no longer exact there: split the amount so every product stays an exact integer.
  const rest = amount % 10000;
  const wholes = (amount - rest) / 10000;
  return wholes * basisPoints + Math.floor((rest * basisPoints + 5000) / 10000);
}
