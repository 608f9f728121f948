/**
 * The Adyen simulator's test cards: the card number alone decides what "Adyen" does (the real test
 * environment keys refusals on other inputs; these mirror the sandbox acquirer's numbers where the
 * outcome is the same). Refusal codes and texts are Adyen's own (refusal-reasons page), not the
 * engine's: the adapter's code table maps them. Any other Luhn-valid number is authorised; a number
 * failing the Luhn check is refused as invalid before processing (422, errorCode 101).
 */
export type AdyenCardBehaviour =
  | { kind: 'authorise' }
  | { kind: 'refuse'; refusalReasonCode: string; refusalReason: string }
  /** resultCode Error: processed, failed, nothing charged. */
  | { kind: 'error' }
  /** Processed and stored at once; the answer is held past the caller's timeout (charged, unanswered). */
  | { kind: 'answer_lost' }
  /** Processing takes the hold: meanwhile the key is in progress (422, errorCode 704), then it authorises. */
  | { kind: 'slow' }
  /** HTTP 500 before anything is processed or stored. */
  | { kind: 'server_error' }
  /**
   * Processed and stored at once (charged), then answered HTTP 500 without Transient-Error (outcome
   * unknown); a retry under the same key gets the stored Authorised answer.
   */
  | { kind: 'error_after_charge' }
  /** ChallengeShopper / RedirectShopper unless authenticated external 3DS values (mpiData) come with it. */
  | { kind: 'challenge' }
  | { kind: 'redirect' }
  /**
   * Adyen's documented 3DS2 test cards in the redirect flow: RedirectShopper for a shopper-present
   * payment (Ecommerce), Authorised for a merchant-initiated one (ContAuth: no shopper to challenge).
   */
  | { kind: 'redirect_3ds2' }
  /** Authorises; a manual capture is confirmed with success "false", an automatic one fails later (CAPTURE_FAILED). */
  | { kind: 'capture_fails' }
  /** Authorises; a refund is confirmed (REFUND) and fails later (REFUND_FAILED). */
  | { kind: 'refund_fails' }
  /** Authorises; once captured, the shopper disputes it (CHARGEBACK). */
  | { kind: 'dispute' };

const refuse = (refusalReasonCode: string, refusalReason: string): AdyenCardBehaviour => ({
  kind: 'refuse',
  refusalReasonCode,
  refusalReason,
});

export const adyenTestCards: Readonly<Record<string, AdyenCardBehaviour>> = {
  '4242424242424242': { kind: 'authorise' },
  '5555555555554444': { kind: 'authorise' },
  '4000000000000002': refuse('27', 'Declined Non Generic'),
  '4000000000009995': refuse('12', 'Not enough balance'),
  '4000000000009987': refuse('5', 'Blocked Card'),
  '4000000000009979': refuse('20', 'FRAUD'),
  '4000000000000101': refuse('2', 'Refused'),
  '4000000000000127': refuse('24', 'CVC Declined'),
  '4000000000000069': refuse('6', 'Expired Card'),
  '4000000000000119': refuse('4', 'Acquirer Error'),
  '4000000000000135': refuse('38', 'Authentication required'),
  '4000000000000010': { kind: 'error' },
  '4000000000000077': { kind: 'answer_lost' },
  '4000000000000085': { kind: 'slow' },
  '4000000000000200': { kind: 'server_error' },
  '4000000000000515': { kind: 'error_after_charge' },
  '4000000000003220': { kind: 'challenge' },
  '4000002760003184': { kind: 'redirect' },
  '4917610000000000': { kind: 'redirect_3ds2' },
  '5454545454545454': { kind: 'redirect_3ds2' },
  '4212345678910006': { kind: 'redirect_3ds2' },
  '4000000000000341': { kind: 'capture_fails' },
  '4000000000005126': { kind: 'refund_fails' },
  '4000000000000259': { kind: 'dispute' },
};

/**
 * Adyen's own test trigger: in its test environment `paymentMethod.holderName` set to one of these
 * values gives that result whatever the card. A subset; the simulator applies it before the card's
 * own behaviour.
 */
export interface TriggeredRefusal {
  resultCode: 'Refused' | 'Error';
  refusalReasonCode: string;
  refusalReason: string;
}

const triggered = (resultCode: TriggeredRefusal['resultCode'], code: string, reason: string): TriggeredRefusal => ({
  resultCode,
  refusalReasonCode: code,
  refusalReason: reason,
});

export const holderNameTriggers: Readonly<Record<string, TriggeredRefusal>> = {
  DECLINED: triggered('Refused', '2', 'Refused'),
  REFERRAL: triggered('Refused', '3', 'Referral'),
  ERROR: triggered('Error', '4', 'Acquirer Error'),
  BLOCK_CARD: triggered('Refused', '5', 'Blocked Card'),
  CARD_EXPIRED: triggered('Refused', '6', 'Expired Card'),
  ISSUER_UNAVAILABLE: triggered('Refused', '9', 'Issuer Unavailable'),
  NOT_ENOUGH_BALANCE: triggered('Refused', '12', 'Not enough balance'),
};

export function refusalTriggeredBy(holderName: string | undefined): TriggeredRefusal | undefined {
  return holderName !== undefined && Object.hasOwn(holderNameTriggers, holderName)
    ? holderNameTriggers[holderName]
    : undefined;
}

export function behaviourOf(number: string): AdyenCardBehaviour {
  return Object.hasOwn(adyenTestCards, number) ? adyenTestCards[number]! : { kind: 'authorise' };
}

export function passesLuhn(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Which brand Adyen reports (`paymentMethod` of a notification). */
export function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mc';
  return 'scheme';
}
