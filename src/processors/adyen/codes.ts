import type { DeclineCode } from '../declineCodes';

/**
 * Adyen's codes → the engine's codes (src/processors/declineCodes.ts gives each its category and
 * whether the outcome is unknown). Three kinds of vendor code, distinct in shape:
 * - refusalReasonCode (1–2 digits) of a `Refused` payment
 * - resultCode names of a payment that neither authorised nor asks for 3DS
 * - errorCode of a 4xx ServiceError (3 digits; the ServiceError of CheckoutService-v71.json)
 */
interface Rule {
  /** Adyen's own wording, kept for messages and the docs. */
  adyen: string;
  code: DeclineCode;
}

/** Point-of-sale reasons (PIN, contactless, AID) cannot change for a card-not-present payment: hard. */
export const refusalReasons: Readonly<Record<string, Rule>> = {
  '2': { adyen: 'Refused', code: 'do_not_honor' },
  '3': { adyen: 'Referral', code: 'card_declined' },
  '4': { adyen: 'Acquirer Error', code: 'processing_error' },
  '5': { adyen: 'Blocked Card', code: 'pickup_card' },
  '6': { adyen: 'Expired Card', code: 'expired_card' },
  '7': { adyen: 'Invalid Amount', code: 'invalid_amount' },
  '8': { adyen: 'Invalid Card Number', code: 'incorrect_number' },
  '9': { adyen: 'Issuer Unavailable', code: 'issuer_unavailable' },
  '10': { adyen: 'Not supported', code: 'transaction_not_allowed' },
  '11': { adyen: '3D Not Authenticated', code: 'authentication_failed' },
  '12': { adyen: 'Not enough balance', code: 'insufficient_funds' },
  '14': { adyen: 'Acquirer Fraud', code: 'fraudulent' },
  '15': { adyen: 'Cancelled', code: 'generic_soft_decline' },
  '16': { adyen: 'Shopper Cancelled', code: 'generic_soft_decline' },
  '17': { adyen: 'Invalid Pin', code: 'card_declined' },
  '18': { adyen: 'Pin tries exceeded', code: 'card_declined' },
  '19': { adyen: 'Pin validation not possible', code: 'processing_error' },
  '20': { adyen: 'FRAUD', code: 'fraudulent' },
  '21': { adyen: 'Not Submitted', code: 'processing_error' },
  '22': { adyen: 'FRAUD-CANCELLED', code: 'fraudulent' },
  '23': { adyen: 'Transaction Not Permitted', code: 'transaction_not_allowed' },
  '24': { adyen: 'CVC Declined', code: 'incorrect_cvc' },
  '25': { adyen: 'Restricted Card', code: 'restricted_card' },
  '26': { adyen: 'Revocation Of Auth', code: 'card_declined' },
  '27': { adyen: 'Declined Non Generic', code: 'card_declined' },
  '28': { adyen: 'Withdrawal amount exceeded', code: 'card_velocity_exceeded' },
  '29': { adyen: 'Withdrawal count exceeded', code: 'withdrawal_count_limit_exceeded' },
  '31': { adyen: 'Issuer Suspected Fraud', code: 'fraudulent' },
  '32': { adyen: 'AVS Declined', code: 'card_declined' },
  '33': { adyen: 'Card requires online pin', code: 'card_declined' },
  '34': { adyen: 'No checking account available on Card', code: 'invalid_account' },
  '35': { adyen: 'No savings account available on Card', code: 'invalid_account' },
  '36': { adyen: 'Mobile pin required', code: 'card_declined' },
  '37': { adyen: 'Contactless fallback', code: 'card_declined' },
  '38': { adyen: 'Authentication required', code: 'authentication_required' },
  '39': { adyen: 'RReq not received from DS', code: 'processing_error' },
  '40': { adyen: 'Current AID is in Penalty Box', code: 'card_declined' },
  '41': { adyen: 'CVM Required Restart Payment', code: 'card_declined' },
  '42': { adyen: '3DS Authentication Error', code: 'processing_error' },
  // Adyen stops retries that would cost scheme fees: never retried, elsewhere either.
  '46': { adyen: 'Transaction blocked by Adyen to prevent excessive retry fees', code: 'card_declined' },
};

/** A payment result that is neither Authorised nor a 3DS action (Refused without a reason code too). */
export const resultCodes: Readonly<Record<string, Rule>> = {
  Refused: { adyen: 'Refused', code: 'card_declined' },
  Error: { adyen: 'Error', code: 'processing_error' },
  Cancelled: { adyen: 'Cancelled', code: 'generic_soft_decline' },
};

/** 4xx ServiceError errorCodes Adyen answers before processing anything. */
export const serviceErrors: Readonly<Record<string, Rule>> = {
  '010': { adyen: 'Not allowed', code: 'invalid_credentials' },
  '101': { adyen: 'Invalid card number', code: 'incorrect_number' },
  '103': { adyen: 'CVC is not the right length', code: 'incorrect_cvc' },
  '129': { adyen: 'Expiry Date Invalid', code: 'invalid_expiry_date' },
  '167': { adyen: 'Original pspReference required for this operation', code: 'transaction_not_found' },
  '704': { adyen: 'request already processed or in progress', code: 'idempotency_conflict' },
  '901': { adyen: 'Invalid Merchant Account', code: 'invalid_credentials' },
};

/** An unknown refusal is never retried elsewhere (fails closed, like the engine's own table). */
const unknownRefusal: DeclineCode = 'card_declined';
/** An unknown 4xx: Adyen refused the request itself, nothing was processed. */
const unknownServiceError: DeclineCode = 'invalid_request';

export function codeForRefusal(refusalReasonCode: string | undefined): DeclineCode {
  const rule = refusalReasonCode === undefined ? undefined : own(refusalReasons, refusalReasonCode);
  return rule?.code ?? unknownRefusal;
}

export function codeForServiceError(errorCode: string | undefined): DeclineCode {
  const rule = errorCode === undefined ? undefined : own(serviceErrors, errorCode);
  return rule?.code ?? unknownServiceError;
}

/** Any Adyen code, told apart by its shape (see the top of this file). */
export function classifyAdyenCode(vendorCode: string): DeclineCode {
  const code = vendorCode.trim();
  if (/^\d{1,2}$/.test(code)) return codeForRefusal(code);
  const result = own(resultCodes, code);
  if (result) return result.code;
  return codeForServiceError(code);
}

function own(table: Readonly<Record<string, Rule>>, key: string): Rule | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
