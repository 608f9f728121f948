import type { DeclineCategory } from './operations';

/**
 * Every error code the engine records on an attempt or a payment, with its category: what a
 * processor answers, what the HTTP executor and the adapters throw, and the codes the payment
 * workflow decides on itself. The category decides what happens next: a hard decline stops the
 * payment; a soft decline or a technical failure may cascade to the next processor of the flow.
 *
 * `outcomeUnknown` marks failures where the request may have reached the processor and charged,
 * but no answer came back. Such an attempt is reversed by its idempotency key before the payment
 * goes on (workflows/payments/attempts.ts).
 */
export interface CodeRule {
  category: DeclineCategory;
  outcomeUnknown: boolean;
}

const hard: CodeRule = { category: 'hard_decline', outcomeUnknown: false };
const soft: CodeRule = { category: 'soft_decline', outcomeUnknown: false };
/** The processor answered (or was never reached): nothing was charged. */
const refusedTechnically: CodeRule = { category: 'technical', outcomeUnknown: false };
/** No usable answer after the request went out: the processor may have charged. */
const unanswered: CodeRule = { category: 'technical', outcomeUnknown: true };

export const declineCodes = {
  // Hard, from the processor: the card or the cardholder's answer will not change elsewhere.
  card_declined: hard,
  insufficient_funds: hard,
  lost_card: hard,
  stolen_card: hard,
  pickup_card: hard,
  expired_card: hard,
  incorrect_cvc: hard,
  incorrect_number: hard,
  invalid_expiry_date: hard,
  invalid_account: hard,
  restricted_card: hard,
  fraudulent: hard,
  transaction_not_allowed: hard,
  authentication_failed: hard,
  invalid_authentication_data: hard,
  currency_not_supported: hard,
  // Hard, refusals of a capture, void, refund or reversal: repeating the call cannot change them.
  currency_mismatch: hard,
  invalid_amount: hard,
  amount_exceeds_authorization: hard,
  refund_exceeds_capture: hard,
  already_captured: hard,
  already_voided: hard,
  already_reversed: hard,
  not_captured: hard,
  transaction_not_found: hard,
  // Hard, decided by the engine before any processor call.
  blocked_by_rule: hard,
  threeds_authentication_failed: hard,
  threeds_session_not_found: hard,
  threeds_session_type_mismatch: hard,
  threeds_session_not_authenticated: hard,

  // Soft: the issuer or processor may say yes another time or through another route.
  do_not_honor: soft,
  try_again_later: soft,
  authentication_required: soft,
  card_velocity_exceeded: soft,
  withdrawal_count_limit_exceeded: soft,
  reenter_transaction: soft,
  generic_soft_decline: soft,
  threeds_challenge_timeout: soft,
  /** The shopper did not finish the processor's authentication page in time (step-up); canceled at the processor. */
  authentication_timeout: soft,

  // Technical, answered: the processor said it failed, or refused the call before processing it.
  processing_error: refusedTechnically,
  issuer_unavailable: refusedTechnically,
  processor_unavailable: refusedTechnically,
  processor_unreachable: refusedTechnically,
  invalid_request: refusedTechnically,
  invalid_credentials: refusedTechnically,
  rate_limited: refusedTechnically,
  /** The 3-D Secure server failed; no processor was called. */
  threeds_server_error: refusedTechnically,
  /** The acquirer declined an authorization because the engine had already reversed its key. */
  authorization_reversed: refusedTechnically,
  /** The flow has no enabled processor for this currency and mode: nothing was tried. */
  no_eligible_processor: refusedTechnically,
  /**
   * The processor never answered and the reversal by idempotency key was not confirmed. Technical,
   * but the workflow stops on it rather than cascading (a second charge is worse than a failed one).
   */
  processor_outcome_unknown: unanswered,

  // Technical, unanswered: the request went out and no usable answer came back.
  timeout: unanswered,
  network_error: unanswered,
  invalid_response: unanswered,
  /** The key is this attempt's own, so whatever the processor did under it may stand. */
  idempotency_conflict: unanswered,
  /** The activity ran out of time (startToClose) around the processor call. */
  processor_timeout: unanswered,
  /** An unclassified failure of the attempt; it may have come after the call went out. */
  processor_error: unanswered,
} as const satisfies Record<string, CodeRule>;

export type DeclineCode = keyof typeof declineCodes;

export function isKnownDeclineCode(code: string): code is DeclineCode {
  return Object.hasOwn(declineCodes, code);
}

/**
 * An unknown code is a gap in this table. It fails closed: a hard decline (an unknown answer is
 * never retried elsewhere, card networks penalise re-trying declines that say "never retry"),
 * and, for a failure without an answer, an unknown outcome (it is reversed before the payment ends).
 */
const unknownCode: CodeRule = { category: 'hard_decline', outcomeUnknown: true };

export function codeRuleOf(code: string): CodeRule {
  return isKnownDeclineCode(code) ? declineCodes[code] : unknownCode;
}

export function declineCategoryOf(code: string): DeclineCategory {
  return codeRuleOf(code).category;
}

/** True when a failure with this code may have charged at the processor (see `outcomeUnknown`). */
export function isOutcomeUnknown(code: string): boolean {
  return codeRuleOf(code).outcomeUnknown;
}
