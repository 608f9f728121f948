/**
 * The sandbox 3DS server's test cards: the card number alone decides the ACS's answer (docs/threeds.md
 * lists them). Any other card authenticates frictionless (Y).
 */
export type ThreeDsCardBehaviour = 'challenge' | 'frictionless' | 'attempted' | 'rejected' | 'unavailable';

export const threeDsTestCards: Readonly<Record<string, ThreeDsCardBehaviour>> = {
  '4000000000003220': 'challenge',
  '4000000000003063': 'frictionless',
  '4000000000003055': 'attempted',
  '4000000000003048': 'rejected',
  '4000000000003030': 'unavailable',
};

export function behaviourOf(cardNumber: string): ThreeDsCardBehaviour {
  return threeDsTestCards[cardNumber] ?? 'frictionless';
}

/** ECI per scheme and result (Visa/Amex/Discover-style 05/06/07, Mastercard 02/01/00). */
export function eciFor(brand: string, transStatus: 'Y' | 'A' | 'N' | 'R' | 'U'): string {
  const mastercard = brand === 'mastercard';
  if (transStatus === 'Y') return mastercard ? '02' : '05';
  if (transStatus === 'A') return mastercard ? '01' : '06';
  return mastercard ? '00' : '07';
}
