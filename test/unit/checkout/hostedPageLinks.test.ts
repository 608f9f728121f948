import { parseCardForm } from '../../../src/checkout/hostedPage/cardForm';
import {
  attemptPaymentId,
  checkLinkToken,
  csrfToken,
  isValidCsrf,
  linkToken,
  newCsrfNonce,
} from '../../../src/checkout/hostedPage/links';
import { formatAmount, lineTitle, shopperLanguage } from '../../../src/checkout/hostedPage/pageData';

const keys = { ENCRYPTION_KEY: 'a'.repeat(64), DATA_DIR: '/nonexistent' };
const rotated = {
  ENCRYPTION_KEY: 'b'.repeat(64),
  ENCRYPTION_KEYS_PREVIOUS: ['a'.repeat(64)],
  DATA_DIR: '/nonexistent',
};

describe('hosted page links', () => {
  const expiresAt = new Date('2030-01-01T00:00:00.500Z');

  it('is valid until the session expires, then expired; another session or key never', () => {
    const token = linkToken(keys, 'ch_a', expiresAt);
    expect(checkLinkToken(keys, 'ch_a', token, expiresAt.getTime() - 60_000)).toBe('valid');
    expect(checkLinkToken(keys, 'ch_a', token, expiresAt.getTime() + 1000)).toBe('expired');
    expect(checkLinkToken(keys, 'ch_b', token, 0)).toBe('invalid');
    expect(checkLinkToken({ ...keys, ENCRYPTION_KEY: 'c'.repeat(64) }, 'ch_a', token, 0)).toBe('invalid');
    // A later expiry written into the link breaks its signature.
    const [, mac] = token.split('.');
    expect(checkLinkToken(keys, 'ch_a', `${Number(token.split('.')[0]) + 3600}.${mac}`, 0)).toBe('invalid');
    for (const junk of [undefined, '', 'x', `${'9'.repeat(200)}`, ['a']])
      expect(checkLinkToken(keys, 'ch_a', junk, 0)).toBe('invalid');
  });

  it('keeps links signed before a key rotation working', () => {
    const token = linkToken(keys, 'ch_a', expiresAt);
    expect(checkLinkToken(rotated, 'ch_a', token, 0)).toBe('valid');
  });

  it('binds the CSRF field to the cookie nonce and the session', () => {
    const nonce = newCsrfNonce();
    const token = csrfToken(keys, 'ch_a', nonce);
    expect(isValidCsrf(keys, 'ch_a', nonce, token)).toBe(true);
    expect(isValidCsrf(keys, 'ch_b', nonce, token)).toBe(false);
    expect(isValidCsrf(keys, 'ch_a', newCsrfNonce(), token)).toBe(false);
    expect(isValidCsrf(keys, 'ch_a', undefined, token)).toBe(false);
  });

  it('derives one payment id per (session, attempt)', () => {
    expect(attemptPaymentId('acct_1', 'test', 'ch_a', 'x'.repeat(22))).toBe(
      attemptPaymentId('acct_1', 'test', 'ch_a', 'x'.repeat(22)),
    );
    expect(attemptPaymentId('acct_1', 'test', 'ch_a', 'x'.repeat(22))).not.toBe(
      attemptPaymentId('acct_1', 'test', 'ch_a', 'y'.repeat(22)),
    );
    expect(attemptPaymentId('acct_1', 'test', 'ch_a', 'x'.repeat(22))).toMatch(/^pay_/);
  });
});

describe('hosted page card form', () => {
  const now = new Date('2027-06-15T00:00:00Z');
  const good = { cardNumber: '4242 4242 4242 4242', expiry: '06 / 27', cvc: '123', cardholderName: ' Ada ' };

  it('accepts a valid card and drops the CVC', () => {
    expect(parseCardForm(good, now)).toEqual({
      card: { number: '4242424242424242', expMonth: 6, expYear: 2027, cardholderName: 'Ada' },
      errors: null,
    });
  });

  it('names each wrong field', () => {
    expect(parseCardForm({ ...good, cardNumber: '4242424242424241' }, now).errors).toEqual({
      cardNumber: 'This card number is not valid. Check it and try again.',
    });
    expect(parseCardForm({ ...good, expiry: '05/2027' }, now).errors).toEqual({ expiry: 'This card has expired.' });
    expect(parseCardForm({ ...good, expiry: '0627' }, now).errors).toEqual({
      expiry: 'Enter the expiry date as MM / YY.',
    });
    // American Express asks for four digits.
    expect(parseCardForm({ ...good, cardNumber: '378282246310005' }, now).errors).toEqual({
      cvc: 'Enter the 4-digit security code.',
    });
    expect(parseCardForm({}, now).errors).toEqual({
      cardNumber: 'Enter your card number.',
      expiry: 'Enter the expiry date as MM / YY.',
      cvc: 'Enter the 3-digit security code.',
      cardholderName: 'Enter the name on the card.',
    });
  });
});

describe('hosted page language and amounts', () => {
  it('prefers the session locale, then the browser, then English', () => {
    expect(shopperLanguage('de', 'fr-FR,fr;q=0.9')).toBe('de');
    expect(shopperLanguage(null, 'fr-FR,fr;q=0.9')).toBe('fr-FR');
    expect(shopperLanguage(null, '*;q=1, not a tag!')).toBe('en');
    expect(shopperLanguage(null, undefined)).toBe('en');
  });

  it('falls back from a region to its language, then to the product name', () => {
    const line = { productName: 'Mug', titleTrans: { de: 'Tasse', 'pt-BR': 'Caneca' } };
    expect(lineTitle(line, 'de-AT')).toBe('Tasse');
    expect(lineTitle(line, 'pt-BR')).toBe('Caneca');
    expect(lineTitle(line, 'ja')).toBe('Mug');
    expect(lineTitle({ productName: 'Mug', titleTrans: null }, 'de')).toBe('Mug');
  });

  it('formats minor units exactly for the locale and the currency’s exponent', () => {
    expect(formatAmount(123456, 'EUR', 'en')).toBe('€1,234.56');
    expect(formatAmount(1500, 'JPY', 'ja')).toBe('￥1,500');
    expect(formatAmount(1234, 'KWD', 'en')).toBe('KWD\u00a01.234');
    expect(formatAmount(900719925474099, 'USD', 'en')).toBe('$9,007,199,254,740.99');
  });
});
