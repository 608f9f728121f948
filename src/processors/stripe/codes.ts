import type { DeclineCode } from '../declineCodes';

/**
 * Stripe's error `code` and card `decline_code` values → the engine's codes (docs/processors.md,
 * under `stripe`). A card error carries `code: card_declined` plus a `decline_code`; the decline
 * code is the one classified.
 */
const stripeCodes: Readonly<Record<string, DeclineCode>> = {
  // Hard: the issuer's answer will not change elsewhere.
  generic_decline: 'card_declined',
  card_declined: 'card_declined',
  call_issuer: 'card_declined',
  do_not_try_again: 'card_declined',
  no_action_taken: 'card_declined',
  revocation_of_all_authorizations: 'card_declined',
  revocation_of_authorization: 'card_declined',
  stop_payment_order: 'card_declined',
  testmode_decline: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  lost_card: 'lost_card',
  stolen_card: 'stolen_card',
  pickup_card: 'pickup_card',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  incorrect_number: 'incorrect_number',
  invalid_number: 'incorrect_number',
  invalid_expiry_month: 'invalid_expiry_date',
  invalid_expiry_year: 'invalid_expiry_date',
  invalid_account: 'invalid_account',
  new_account_information_available: 'invalid_account',
  restricted_card: 'restricted_card',
  fraudulent: 'fraudulent',
  merchant_blacklist: 'fraudulent',
  security_violation: 'fraudulent',
  transaction_not_allowed: 'transaction_not_allowed',
  not_permitted: 'transaction_not_allowed',
  card_not_supported: 'transaction_not_allowed',
  service_not_allowed: 'transaction_not_allowed',
  currency_not_supported: 'currency_not_supported',
  payment_intent_authentication_failure: 'authentication_failed',
  // Soft: the issuer or another route may say yes.
  do_not_honor: 'do_not_honor',
  try_again_later: 'try_again_later',
  approve_with_id: 'try_again_later',
  reenter_transaction: 'reenter_transaction',
  card_velocity_exceeded: 'card_velocity_exceeded',
  withdrawal_count_limit_exceeded: 'withdrawal_count_limit_exceeded',
  authentication_required: 'authentication_required',
  offline_pin_required: 'authentication_required',
  online_or_offline_pin_required: 'authentication_required',
  // Technical, answered.
  processing_error: 'processing_error',
  issuer_not_available: 'issuer_unavailable',
  rate_limit: 'rate_limited',
  api_key_expired: 'invalid_credentials',
  secret_key_required: 'invalid_credentials',
  // Refusals of a capture, cancel or refund.
  charge_already_captured: 'already_captured',
  charge_already_refunded: 'refund_exceeds_capture',
  charge_expired_for_capture: 'already_voided',
  resource_missing: 'transaction_not_found',
};

/** An unknown code came with a card error: a decline of the card (hard, nothing charged). */
export function classifyStripeCode(vendorCode: string): DeclineCode {
  return Object.hasOwn(stripeCodes, vendorCode) ? stripeCodes[vendorCode]! : 'card_declined';
}

/** A refusal of a capture, cancel or refund → the engine's code; the PaymentIntent's state says why. */
export function followUpRefusalCode(
  operation: 'capture' | 'void' | 'refund',
  vendorCode: string,
  intentStatus: string | undefined,
): DeclineCode {
  if (vendorCode === 'payment_intent_unexpected_state') {
    if (intentStatus === 'succeeded') return operation === 'refund' ? 'refund_exceeds_capture' : 'already_captured';
    if (intentStatus === 'canceled') return 'already_voided';
    if (intentStatus === 'requires_capture' && operation === 'refund') return 'not_captured';
    return 'invalid_request';
  }
  if (vendorCode === 'amount_too_large')
    return operation === 'refund' ? 'refund_exceeds_capture' : 'amount_exceeds_authorization';
  if (vendorCode === 'amount_too_small' || vendorCode === 'parameter_invalid_integer') return 'invalid_amount';
  return classifyStripeCode(vendorCode);
}
