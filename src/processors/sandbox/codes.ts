import { isKnownDeclineCode, type DeclineCode } from '../declineCodes';

/** The acquirer answers in the engine's own codes; one it has never sent is a decline of the card. */
export function classifySandboxCode(vendorCode: string): DeclineCode {
  return isKnownDeclineCode(vendorCode) ? vendorCode : 'card_declined';
}
