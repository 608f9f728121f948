import {
  classifyAdyenCode,
  codeForRefusal,
  codeForServiceError,
  refusalReasons,
  resultCodes,
  serviceErrors,
} from '../../../src/processors/adyen/codes';
import { codeRuleOf, isKnownDeclineCode } from '../../../src/processors/declineCodes';

describe('Adyen codes → engine codes', () => {
  it.each([
    // refusalReasonCode: category decides the cascade
    ['2', 'do_not_honor', 'soft_decline', false],
    ['12', 'insufficient_funds', 'hard_decline', false],
    ['24', 'incorrect_cvc', 'hard_decline', false],
    ['6', 'expired_card', 'hard_decline', false],
    ['20', 'fraudulent', 'hard_decline', false],
    ['38', 'authentication_required', 'soft_decline', false],
    ['4', 'processing_error', 'technical', false],
    ['9', 'issuer_unavailable', 'technical', false],
    ['46', 'card_declined', 'hard_decline', false],
    // resultCode without a reason
    ['Error', 'processing_error', 'technical', false],
    ['Cancelled', 'generic_soft_decline', 'soft_decline', false],
    ['Refused', 'card_declined', 'hard_decline', false],
    // ServiceError errorCode
    ['101', 'incorrect_number', 'hard_decline', false],
    ['167', 'transaction_not_found', 'hard_decline', false],
    ['901', 'invalid_credentials', 'technical', false],
    ['704', 'idempotency_conflict', 'technical', true],
  ] as const)('%s → %s (%s, outcome unknown: %s)', (vendorCode, code, category, outcomeUnknown) => {
    expect(classifyAdyenCode(vendorCode)).toBe(code);
    expect(codeRuleOf(code)).toEqual({ category, outcomeUnknown });
  });

  it('fails closed on an unknown refusal (a hard decline) and treats an unknown 4xx as a refused request', () => {
    expect(codeForRefusal('99')).toBe('card_declined');
    expect(codeForRefusal(undefined)).toBe('card_declined');
    expect(classifyAdyenCode('99')).toBe('card_declined');
    expect(codeForServiceError('14_999')).toBe('invalid_request');
    expect(classifyAdyenCode('14_999')).toBe('invalid_request');
    expect(codeRuleOf('invalid_request')).toEqual({ category: 'technical', outcomeUnknown: false });
    // No prototype key is taken for a code.
    expect(classifyAdyenCode('constructor')).toBe('invalid_request');
  });

  it('maps every listed vendor code to a code of the engine table', () => {
    for (const rule of [
      ...Object.values(refusalReasons),
      ...Object.values(resultCodes),
      ...Object.values(serviceErrors),
    ])
      expect([rule.adyen, isKnownDeclineCode(rule.code)]).toEqual([rule.adyen, true]);
  });

  it('tells the three kinds of code apart by shape, so classify reaches the right table', () => {
    for (const code of Object.keys(refusalReasons)) expect(code).toMatch(/^\d{1,2}$/);
    for (const code of Object.keys(serviceErrors)) expect(code).not.toMatch(/^\d{1,2}$/);
    for (const code of Object.keys(resultCodes)) expect(code).toMatch(/^[A-Z][a-z]+$/);
    for (const [code, rule] of Object.entries(refusalReasons)) expect(classifyAdyenCode(code)).toBe(rule.code);
    for (const [code, rule] of Object.entries(serviceErrors)) expect(classifyAdyenCode(code)).toBe(rule.code);
  });

  it('never makes a refusal an unknown outcome: Adyen answered it', () => {
    for (const [code, rule] of Object.entries(refusalReasons))
      expect([code, codeRuleOf(rule.code).outcomeUnknown]).toEqual([code, false]);
  });
});
