import { cardBrandOf, hasValidLengthForBrand } from '../../domain/cardBrand';
import { isExpiryInFuture, passesLuhn } from '../../domain/luhn';

export interface CardFields {
  number: string;
  expMonth: number;
  expYear: number;
  cardholderName: string;
}

export type CardFormErrors = Partial<Record<'cardNumber' | 'expiry' | 'cvc' | 'cardholderName', string>>;

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');

/**
 * The card form as posted, checked as the page's script checks it (the script is only a help):
 * Luhn and the brand's length, an expiry this month or later, a CVC of the brand's length (4 for
 * American Express), a name. The CVC is checked and dropped: it is never stored.
 */
export function parseCardForm(
  body: Record<string, unknown>,
  now = new Date(),
): { card: CardFields; errors: null } | { card: null; errors: CardFormErrors } {
  const errors: CardFormErrors = {};
  const number = text(body.cardNumber, 40).replace(/[\s-]/g, '');
  if (!number) errors.cardNumber = 'Enter your card number.';
  else if (!/^\d{12,19}$/.test(number) || !passesLuhn(number) || !hasValidLengthForBrand(number))
    errors.cardNumber = 'This card number is not valid. Check it and try again.';

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text(body.expiry, 20));
  let expMonth = 0;
  let expYear = 0;
  if (!expiry) errors.expiry = 'Enter the expiry date as MM / YY.';
  else {
    expMonth = Number(expiry[1]);
    expYear = Number(expiry[2]) + (expiry[2]!.length === 2 ? 2000 : 0);
    if (expMonth < 1 || expMonth > 12) errors.expiry = 'The month must be between 01 and 12.';
    else if (!isExpiryInFuture(expMonth, expYear, now)) errors.expiry = 'This card has expired.';
  }

  const cvcLength = cardBrandOf(number) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(text(body.cvc, 10).trim()))
    errors.cvc = `Enter the ${cvcLength}-digit security code.`;

  const cardholderName = text(body.cardholderName, 100).trim();
  if (!cardholderName) errors.cardholderName = 'Enter the name on the card.';

  if (Object.keys(errors).length > 0) return { card: null, errors };
  return { card: { number, expMonth, expYear, cardholderName }, errors: null };
}

/** What the form shows again after an error: never the card number or the CVC. */
export function redisplayedValues(body: Record<string, unknown>) {
  return { expiry: text(body.expiry, 9), cardholderName: text(body.cardholderName, 100) };
}
