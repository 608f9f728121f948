/** Card brand from the leading digits (IIN ranges as the schemes publish them). */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'diners' | 'unionpay' | 'unknown';

const ranges: { brand: CardBrand; test: (pan: string) => boolean; lengths: number[] }[] = [
  { brand: 'amex', test: (p) => /^3[47]/.test(p), lengths: [15] },
  { brand: 'diners', test: (p) => /^3(0[0-5]|[689])/.test(p), lengths: [14, 16, 19] },
  { brand: 'jcb', test: (p) => inRange(p, 4, 3528, 3589), lengths: [16, 17, 18, 19] },
  { brand: 'mastercard', test: (p) => inRange(p, 2, 51, 55) || inRange(p, 4, 2221, 2720), lengths: [16] },
  { brand: 'discover', test: (p) => /^(6011|64[4-9]|65)/.test(p), lengths: [16, 19] },
  { brand: 'unionpay', test: (p) => /^62/.test(p), lengths: [16, 17, 18, 19] },
  { brand: 'visa', test: (p) => /^4/.test(p), lengths: [13, 16, 19] },
];

function inRange(pan: string, digits: number, low: number, high: number): boolean {
  const prefix = Number(pan.slice(0, digits));
  return prefix >= low && prefix <= high;
}

export function cardBrandOf(pan: string): CardBrand {
  return ranges.find((range) => range.test(pan))?.brand ?? 'unknown';
}

/** Whether the PAN's length is one its brand issues (unknown brands: 12-19 digits). */
export function hasValidLengthForBrand(pan: string): boolean {
  const range = ranges.find((r) => r.test(pan));
  return range ? range.lengths.includes(pan.length) : pan.length >= 12 && pan.length <= 19;
}

/**
 * Issuing country for test-mode cards. A real deployment would look the BIN up in a BIN table;
 * the sandbox has none, so well-known test BINs map to a country and everything else to null.
 */
const testBinCountries: Record<string, string> = {
  '424242': 'US',
  '400000': 'US',
  '555555': 'US',
  '222300': 'US',
  '378282': 'US',
  '601111': 'US',
  '353011': 'JP',
  '401288': 'US',
  '400005': 'US',
  '403600': 'DE',
  '400002': 'GB',
  '400006': 'FR',
};

export function issuingCountryOf(pan: string): string | null {
  return testBinCountries[pan.slice(0, 6)] ?? null;
}
