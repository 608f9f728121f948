/**
 * The Stripe simulator's test cards. Stripe's own test numbers where Stripe has one; the others are the simulator's, for cases Stripe cannot
 * show on demand (a soft decline, a held answer, a 5xx). docs/processors.md lists them.
 */
export type StripeCardBehaviour =
  | { kind: 'approve' }
  /** A card error: `code` (card_declined, expired_card …) and, for card_declined, a `decline_code`. */
  | { kind: 'decline'; code: string; declineCode?: string; message: string }
  /**
   * requires_action (3DS) unless imported 3DS results with ares_trans_status Y or A come with it.
   * `onSessionOnly`: an off-session confirm succeeds without it. `declineAfter`: once authenticated
   * on the simulator's page, the card declines with this decline code.
   */
  | { kind: 'requires_3ds'; onSessionOnly?: boolean; declineAfter?: { declineCode: string; message: string } }
  /** Holds the answer (POST /_simulator/hold, default 10 s), then approves. */
  | { kind: 'hold' }
  /** Charges, then answers 500: the answer is lost after the money moved. */
  | { kind: 'error_after_charge' }
  /** Answers 500 before doing anything (in front of the API: no result is saved under the key). */
  | { kind: 'error_before_charge' }
  /** Approves; its refunds stay `pending`, then succeed (refund.updated, charge.refund.updated). */
  | { kind: 'refund_pending' }
  /** Approves; its refunds succeed, then fail (refund.failed, refund.updated, charge.refund.updated). */
  | { kind: 'refund_fails' }
  /** Approves; once captured, the charge is disputed as fraudulent (charge.dispute.created). */
  | { kind: 'disputed' };

const declined = (declineCode: string, message: string): StripeCardBehaviour => ({
  kind: 'decline',
  code: 'card_declined',
  declineCode,
  message,
});

export const stripeTestCards: Readonly<Record<string, StripeCardBehaviour>> = {
  '4242424242424242': { kind: 'approve' },
  '5555555555554444': { kind: 'approve' },
  '4000000000000002': declined('generic_decline', 'Your card was declined.'),
  '4000000000009995': declined('insufficient_funds', 'Your card has insufficient funds.'),
  '4000000000009987': declined('lost_card', 'Your card was declined.'),
  '4000000000009979': declined('stolen_card', 'Your card was declined.'),
  '4000000000005100': declined('do_not_honor', 'Your card was declined.'),
  '4000000000000069': { kind: 'decline', code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { kind: 'decline', code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '4000000000000119': {
    kind: 'decline',
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
  '4000000000003220': { kind: 'requires_3ds' },
  '4000002760003184': { kind: 'requires_3ds' },
  '4000008260003178': {
    kind: 'requires_3ds',
    declineAfter: { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  '4000002500003155': { kind: 'requires_3ds', onSessionOnly: true },
  '4000000000000077': { kind: 'hold' },
  '4000000000005001': { kind: 'error_after_charge' },
  '4000000000005019': { kind: 'error_before_charge' },
  '4000000000007726': { kind: 'refund_pending' },
  '4000000000005126': { kind: 'refund_fails' },
  '4000000000000259': { kind: 'disputed' },
};

export const defaultHoldMs = 10_000;
export const maxHoldMs = 120_000;
