import type { AuthorizeRequest, BrowserInfo, CardDetails, FollowUpRequest, ThreeDsValues } from '../types';
import { defaultReturnUrl, type AdyenCredentials } from './credentials';

/**
 * Pure mapping from the engine's calls to Checkout API v71 request bodies (no I/O). Every body
 * built here is checked against the request schemas of Adyen's own OpenAPI document in the tests
 * (test/helpers/adyenSchemas.ts), so a field Adyen would reject fails a test.
 */
export interface AdyenAmount {
  value: number;
  currency: string;
}

export interface AdyenCardPaymentMethod {
  type: 'scheme';
  number: string;
  expiryMonth: string;
  expiryYear: string;
  holderName?: string;
  cvc?: string;
}

/** External 3-D Secure results (`ThreeDSecureData`). */
export interface AdyenMpiData {
  cavv: string;
  eci: string;
  dsTransID?: string;
  threeDSVersion: string;
  directoryResponse?: string;
  authenticationResponse?: string;
}

export interface AdyenPaymentRequest {
  amount: AdyenAmount;
  merchantAccount: string;
  reference: string;
  returnUrl: string;
  paymentMethod: AdyenCardPaymentMethod;
  shopperInteraction: 'Ecommerce' | 'ContAuth';
  recurringProcessingModel?: 'UnscheduledCardOnFile';
  additionalData?: { manualCapture: 'true' };
  mpiData?: AdyenMpiData;
  /** Step-up only: a browser payment whose 3-D Secure 2 runs on Adyen's redirect page. */
  channel?: 'Web';
  origin?: string;
  /** Step-up only: echoed in the AUTHORISATION webhook (additionalData `metadata.engineKey`). */
  metadata?: { engineKey: string };
  /** For 3-D Secure 2, when the caller described the shopper's browser completely (Adyen requires every field). */
  browserInfo?: AdyenBrowserInfo;
  shopperIP?: string;
}

export interface AdyenBrowserInfo {
  userAgent: string;
  acceptHeader: string;
  language: string;
  colorDepth: number;
  screenHeight: number;
  screenWidth: number;
  timeZoneOffset: number;
  javaEnabled: boolean;
  javaScriptEnabled?: boolean;
}

/** The engine's browserInfo as Adyen takes it: only when every field Adyen requires is there. */
export function adyenBrowserInfo(info: BrowserInfo | undefined): AdyenBrowserInfo | undefined {
  if (!info) return undefined;
  const { userAgent, acceptHeader, language, colorDepth, screenHeight, screenWidth, timeZoneOffset, javaEnabled } =
    info;
  if (
    language === undefined ||
    colorDepth === undefined ||
    screenHeight === undefined ||
    screenWidth === undefined ||
    timeZoneOffset === undefined ||
    javaEnabled === undefined
  )
    return undefined;
  return {
    userAgent,
    acceptHeader,
    language,
    colorDepth,
    screenHeight,
    screenWidth,
    timeZoneOffset,
    javaEnabled,
    ...(info.javaScriptEnabled === undefined ? {} : { javaScriptEnabled: info.javaScriptEnabled }),
  };
}

export interface AdyenModificationRequest {
  merchantAccount: string;
  reference: string;
  amount?: AdyenAmount;
}

/** The card may carry a CVC once the contract's CardDetails has one; it is never stored, only forwarded. */
type CardWithCvc = CardDetails & { cvc?: string };

export function paymentRequest(request: AuthorizeRequest, credentials: AdyenCredentials): AdyenPaymentRequest {
  const merchantInitiated = request.initiatedBy === 'merchant';
  // A merchant-initiated charge has no shopper to send anywhere: it never steps up.
  const stepUp = request.returnUrl !== undefined && !merchantInitiated;
  return {
    amount: { value: request.amount, currency: request.currency },
    merchantAccount: credentials.merchantAccount,
    reference: request.paymentId,
    returnUrl: stepUp ? request.returnUrl! : (credentials.returnUrl ?? defaultReturnUrl),
    paymentMethod: cardPaymentMethod(request.card, !merchantInitiated),
    // A merchant-initiated charge is a card-on-file charge without the shopper; the engine does not
    // say whether it follows a fixed schedule, so the model that fits any of them is used.
    ...(merchantInitiated
      ? { shopperInteraction: 'ContAuth' as const, recurringProcessingModel: 'UnscheduledCardOnFile' as const }
      : { shopperInteraction: 'Ecommerce' as const }),
    ...(request.capture ? {} : { additionalData: { manualCapture: 'true' as const } }),
    ...(request.threeDs ? { mpiData: mpiData(request.threeDs) } : {}),
    ...(stepUp ? stepUpFields(request.returnUrl!, request.idempotencyKey) : {}),
    ...(!merchantInitiated && adyenBrowserInfo(request.browserInfo)
      ? { browserInfo: adyenBrowserInfo(request.browserInfo)! }
      : {}),
    ...(!merchantInitiated && request.shopperIp ? { shopperIP: request.shopperIp } : {}),
  };
}

/** Adyen's limits: origin up to 80 characters, a metadata value up to 80. */
function stepUpFields(returnUrl: string, idempotencyKey: string): Partial<AdyenPaymentRequest> {
  const origin = new URL(returnUrl).origin;
  return {
    channel: 'Web',
    ...(origin.length <= 80 ? { origin } : {}),
    ...(idempotencyKey.length <= 80 ? { metadata: { engineKey: idempotencyKey } } : {}),
  };
}

/** Sent to /payments/details: what the shopper's browser brought back from Adyen's page. */
export interface AdyenDetailsRequest {
  details: { redirectResult: string } | { threeDSResult: string };
}

/** undefined: nothing in the return data Adyen could decide the payment with. */
export function detailsRequest(returnData: Record<string, string> | undefined): AdyenDetailsRequest | undefined {
  const redirectResult = returnData?.redirectResult?.trim();
  if (redirectResult) return { details: { redirectResult } };
  const threeDSResult = returnData?.threeDSResult?.trim();
  if (threeDSResult) return { details: { threeDSResult } };
  return undefined;
}

function cardPaymentMethod(card: CardWithCvc, withCvc: boolean): AdyenCardPaymentMethod {
  return {
    type: 'scheme',
    number: card.number,
    expiryMonth: String(card.expMonth).padStart(2, '0'),
    expiryYear: String(card.expYear < 100 ? 2000 + card.expYear : card.expYear),
    ...(card.holderName ? { holderName: card.holderName } : {}),
    ...(withCvc && card.cvc ? { cvc: card.cvc } : {}),
  };
}

const directoryResponses = new Set(['A', 'C', 'D', 'I', 'N', 'R', 'U', 'Y']);
const authenticationResponses = new Set(['Y', 'N', 'U', 'A']);

/**
 * The engine keeps the final transStatus only. For a frictionless authentication it is the ARes
 * status (directoryResponse); after a challenge it is the RReq status (authenticationResponse) and
 * the ARes one (C) is not kept, so both fields carry the final status. Values pass unchanged.
 */
export function mpiData(threeDs: ThreeDsValues): AdyenMpiData {
  return {
    cavv: threeDs.authenticationValue,
    eci: threeDs.eci,
    ...(threeDs.dsTransID ? { dsTransID: threeDs.dsTransID } : {}),
    threeDSVersion: threeDs.messageVersion,
    ...(directoryResponses.has(threeDs.transStatus) ? { directoryResponse: threeDs.transStatus } : {}),
    ...(authenticationResponses.has(threeDs.transStatus) ? { authenticationResponse: threeDs.transStatus } : {}),
  };
}

/**
 * Capture and refund name an amount; cancel and reversal take the whole payment. The engine's key is
 * the modification's reference, so its webhook (merchantReference) names the engine's operation.
 */
export function modificationRequest(
  request: FollowUpRequest,
  credentials: AdyenCredentials,
  withAmount: boolean,
): AdyenModificationRequest {
  return {
    merchantAccount: credentials.merchantAccount,
    reference: request.idempotencyKey,
    ...(withAmount ? { amount: { value: request.amount, currency: request.currency } } : {}),
  };
}

export function reversalRequest(idempotencyKey: string, credentials: AdyenCredentials): AdyenModificationRequest {
  return { merchantAccount: credentials.merchantAccount, reference: idempotencyKey };
}

/** Fails the Luhn check: if Adyen ever processes it as a new payment it refuses it before any charge. */
export const lookupProbeCardNumber = '4111111111111112';

/**
 * The body resent under an authorization's idempotency key to learn what Adyen stored for it
 * (docs/processors-adyen.md, "Lookup"). Adyen answers a key it already processed with the stored
 * answer of the first request; an unused key is taken as this request, which Adyen refuses as
 * invalid before anything reaches a card network.
 */
export function lookupProbeRequest(credentials: AdyenCredentials): AdyenPaymentRequest {
  return {
    amount: { value: 0, currency: 'EUR' },
    merchantAccount: credentials.merchantAccount,
    reference: 'engine-lookup-probe',
    returnUrl: credentials.returnUrl ?? defaultReturnUrl,
    paymentMethod: { type: 'scheme', number: lookupProbeCardNumber, expiryMonth: '12', expiryYear: '2099' },
    shopperInteraction: 'Ecommerce',
  };
}

/**
 * Sent under the key after the probe found it unused: `POST /paymentMethods` changes nothing, and
 * Adyen stores its answer under the key, so any later request under that key (a late original
 * authorization) is answered with it instead of being processed.
 */
export function keyFenceRequest(credentials: AdyenCredentials): { merchantAccount: string } {
  return { merchantAccount: credentials.merchantAccount };
}
