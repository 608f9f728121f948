import type { DeclineCategory } from './types';

/**
 * Every error code a processor adapter may report, and its category. The category alone decides
 * what happens next: a hard decline stops the payment, a soft decline or a technical failure may
 * cascade to the next processor of the flow.
 */
export const declineCodes = {
  // Hard: the card or the cardholder's answer will not change on another processor.
  card_declined: 'hard_decline',
  insufficient_funds: 'hard_decline',
  lost_card: 'hard_decline',
  stolen_card: 'hard_decline',
  pickup_card: 'hard_decline',
  expired_card: 'hard_decline',
  incorrect_cvc: 'hard_decline',
  incorrect_number: 'hard_decline',
  invalid_expiry_date: 'hard_decline',
  invalid_account: 'hard_decline',
  restricted_card: 'hard_decline',
  fraudulent: 'hard_decline',
  transaction_not_allowed: 'hard_decline',
  authentication_failed: 'hard_decline',
  invalid_authentication_data: 'hard_decline',
  blocked_by_rule: 'hard_decline',
  currency_not_supported: 'hard_decline',
  currency_mismatch: 'hard_decline',
  invalid_amount: 'hard_decline',
  amount_exceeds_authorization: 'hard_decline',
  refund_exceeds_capture: 'hard_decline',
  already_captured: 'hard_decline',
  already_voided: 'hard_decline',
  not_captured: 'hard_decline',
  transaction_not_found: 'hard_decline',
  // Soft: the issuer or processor may say yes another time or through another route.
  do_not_honor: 'soft_decline',
  try_again_later: 'soft_decline',
  authentication_required: 'soft_decline',
  card_velocity_exceeded: 'soft_decline',
  withdrawal_count_limit_exceeded: 'soft_decline',
  reenter_transaction: 'soft_decline',
  generic_soft_decline: 'soft_decline',
  // Technical: the integration failed; nothing was decided about the card.
  processing_error: 'technical',
  processor_unavailable: 'technical',
  timeout: 'technical',
  issuer_unavailable: 'technical',
  network_error: 'technical',
  invalid_response: 'technical',
  invalid_request: 'technical',
  invalid_credentials: 'technical',
  rate_limited: 'technical',
  idempotency_conflict: 'technical',
} as const satisfies Record<string, DeclineCategory>;

export type DeclineCode = keyof typeof declineCodes;

export function isKnownDeclineCode(code: string): code is DeclineCode {
  return Object.hasOwn(declineCodes, code);
}

/**
 * The category of a code. An unknown code is still an answer the processor gave about the card
 * (the call itself worked), so it is not technical; it is a soft decline, so the payment may still
 * succeed on another processor rather than fail on a code nobody has classified yet.
 */
export function declineCategoryOf(code: string): DeclineCategory {
  return isKnownDeclineCode(code) ? declineCodes[code] : 'soft_decline';
}
