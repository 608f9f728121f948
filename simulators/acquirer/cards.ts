/**
 * The sandbox acquirer's test cards: the card number alone decides the outcome (docs/processors.md lists them).
 * Any other number that passes the Luhn check is approved; one that fails it is declined.
 */
export type CardBehaviour =
  | { kind: 'approve' }
  | { kind: 'decline'; code: string; message: string }
  /** Holds the answer longer than the engine waits, then really approves (the ambiguous case). */
  | { kind: 'timeout' }
  /** Approves; a capture (or a purchase) opens a dispute. */
  | { kind: 'dispute' }
  /** Answers requires_3ds unless authenticated 3DS values (transStatus Y or A) come with it. */
  | { kind: 'requires_3ds' }
  /** Charges, then answers HTTP 500 (stored under the key: a retry gets the same 500; a lookup finds the charge). */
  | { kind: 'error_after_charge' };

export const testCards: Readonly<Record<string, CardBehaviour>> = {
  '4242424242424242': { kind: 'approve' },
  '5555555555554444': { kind: 'approve' },
  '4000000000000002': { kind: 'decline', code: 'card_declined', message: 'The card was declined' },
  '4000000000009995': { kind: 'decline', code: 'insufficient_funds', message: 'Insufficient funds' },
  '4000000000009987': { kind: 'decline', code: 'lost_card', message: 'The card was reported lost' },
  '4000000000000101': { kind: 'decline', code: 'do_not_honor', message: 'Do not honor (soft decline)' },
  '4000000000000119': { kind: 'decline', code: 'processing_error', message: 'The acquirer had a processing error' },
  '4000000000000077': { kind: 'timeout' },
  '4000000000000259': { kind: 'dispute' },
  '4000000000003220': { kind: 'requires_3ds' },
  '4000000000000515': { kind: 'error_after_charge' },
};

export const timeoutCardNumber = '4000000000000077';
/** How long the timeout card is held when the caller does not say (2 × the engine's default timeout). */
export const defaultTimeoutDelayMs = 10_000;
export const maxTimeoutDelayMs = 120_000;
