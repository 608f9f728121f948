/**
 * A decline in words a shopper understands: what happened and what to do, never the processor's
 * code or message (which may name fraud rules or the acquirer).
 */
const byCode: Record<string, string> = {
  insufficient_funds: 'Your card does not have enough funds for this payment. Try another card.',
  expired_card: 'Your card has expired. Try another card.',
  invalid_expiry_date: 'The expiry date does not match your card. Check it or try another card.',
  incorrect_cvc: 'The security code does not match your card. Check it or try another card.',
  incorrect_number: 'The card number is not right. Check it or try another card.',
  lost_card: 'Your bank declined this card. Please use another card.',
  stolen_card: 'Your bank declined this card. Please use another card.',
  pickup_card: 'Your bank declined this card. Please use another card.',
  restricted_card: 'This card cannot be used for this payment. Try another card.',
  transaction_not_allowed: 'This card cannot be used for this payment. Try another card.',
  currency_not_supported: 'This card cannot pay in this currency. Try another card.',
  authentication_failed: 'Your bank could not confirm it was you. Try again or use another card.',
  threeds_authentication_failed: 'Your bank could not confirm it was you. Try again or use another card.',
  threeds_challenge_timeout: 'The confirmation with your bank took too long. Try again.',
  authentication_timeout: 'The confirmation with your bank took too long. Try again.',
  authentication_required: 'Your bank needs to confirm this payment and could not. Try another card.',
  try_again_later: 'Your bank could not take the payment right now. Try again in a few minutes.',
  issuer_unavailable: 'Your bank could not be reached. Try again in a few minutes.',
  card_velocity_exceeded: 'This card has been used too often recently. Try another card.',
  withdrawal_count_limit_exceeded: 'This card has reached its limit. Try another card.',
};

const technical = new Set([
  'processing_error',
  'processor_unavailable',
  'processor_unreachable',
  'processor_timeout',
  'processor_error',
  'processor_outcome_unknown',
  'timeout',
  'network_error',
  'invalid_response',
  'rate_limited',
  'threeds_server_error',
  'no_eligible_processor',
]);

export function shopperDeclineReason(declineCode: string | null): string {
  if (declineCode && byCode[declineCode]) return byCode[declineCode];
  if (declineCode && technical.has(declineCode))
    return 'We could not complete the payment because of a technical problem. Nothing was charged; try again.';
  return 'Your bank declined the payment. Try another card or contact your bank.';
}
