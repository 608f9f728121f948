import { declineCategoryOf, declineCodes, isKnownDeclineCode } from '../../src/processors/declineCodes';
import { testCards } from '../../src/sandbox/acquirer/cards';

describe('decline code table', () => {
  it.each([
    ['card_declined', 'hard_decline'],
    ['insufficient_funds', 'hard_decline'],
    ['lost_card', 'hard_decline'],
    ['stolen_card', 'hard_decline'],
    ['expired_card', 'hard_decline'],
    ['incorrect_cvc', 'hard_decline'],
    ['blocked_by_rule', 'hard_decline'],
    ['do_not_honor', 'soft_decline'],
    ['try_again_later', 'soft_decline'],
    ['authentication_required', 'soft_decline'],
    ['processing_error', 'technical'],
    ['processor_unavailable', 'technical'],
    ['timeout', 'technical'],
    ['issuer_unavailable', 'technical'],
  ])('%s is %s', (code, category) => {
    expect(isKnownDeclineCode(code)).toBe(true);
    expect(declineCategoryOf(code)).toBe(category);
  });

  it('classifies an unknown code as a soft decline, and does not read the prototype', () => {
    expect(declineCategoryOf('brand_new_issuer_code')).toBe('soft_decline');
    expect(isKnownDeclineCode('toString')).toBe(false);
    expect(declineCategoryOf('constructor')).toBe('soft_decline');
  });

  it('classifies every code the sandbox acquirer can answer', () => {
    for (const card of Object.values(testCards)) {
      if (card.kind === 'decline') expect(isKnownDeclineCode(card.code)).toBe(true);
    }
    for (const category of Object.values(declineCodes)) expect(['hard_decline', 'soft_decline', 'technical']).toContain(category);
  });
});
