/** The class of a decline code; each code's class is in its table (declineCodes.ts). */
export type DeclineCategory = 'hard_decline' | 'soft_decline' | 'technical';

export interface ThreeDsValues {
  eci: string;
  authenticationValue: string;
  transStatus: string;
  dsTransID?: string;
  acsTransID?: string;
  threeDSServerTransID?: string;
  messageVersion: string;
  type: 'customer' | 'merchant';
}

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  holderName?: string;
}

export interface AuthorizeRequest {
  /** payment id + attempt number: the processor dedupes on it, so a retried call never charges twice. */
  idempotencyKey: string;
  paymentId: string;
  amount: number;
  currency: string;
  card: CardDetails;
  capture: boolean;
  initiatedBy: 'customer' | 'merchant';
  threeDs?: ThreeDsValues;
  /**
   * Where the processor sends the shopper's browser back after its own authentication page. Given
   * only to a processor with the `stepUp` capability, for a customer-initiated payment; without it
   * an issuer's demand for authentication is answered `requires_3ds` (a decline).
   */
  returnUrl?: string;
  /** The shopper's browser and address, when the caller sent them (customer-initiated payments). */
  browserInfo?: BrowserInfo;
  shopperIp?: string;
  credentials: Record<string, string>;
}

/** The shopper's browser, for 3-D Secure 2 (validated by the API: docs/step-up-authentication.md). */
export interface BrowserInfo {
  userAgent: string;
  acceptHeader: string;
  language?: string;
  colorDepth?: number;
  screenHeight?: number;
  screenWidth?: number;
  timeZoneOffset?: number;
  javaEnabled?: boolean;
  javaScriptEnabled?: boolean;
}

/** Where the shopper's browser goes to authenticate: a GET redirect, or a form posted with `data`. */
export interface AuthenticationAction {
  url: string;
  method: 'GET' | 'POST';
  data?: Record<string, string>;
}

/** The processor reports a chargeback opened against a captured charge (sandbox card 4000000000000259). */
export interface DisputeOpened {
  reason: string;
  amount: number;
}

export type AuthorizeResult =
  | { outcome: 'approved'; processorReference: string; captured: boolean; raw?: unknown; disputeOpened?: DisputeOpened }
  | { outcome: 'declined'; code: string; category: DeclineCategory; message: string; processorReference?: string }
  | { outcome: 'requires_3ds'; code: string; message: string }
  /** Step-up: nothing is final until the shopper has been to `action` and `authenticationResult` says so. */
  | { outcome: 'requires_action'; processorReference: string; action: AuthenticationAction };

export interface AuthenticationResultRequest {
  /** The reference the `requires_action` answer carried. */
  processorReference: string;
  /** The attempt's authorization key. */
  idempotencyKey: string;
  /** What the shopper's browser brought back from the processor's page (Adyen's redirectResult), when anything. */
  returnData?: Record<string, string>;
  /**
   * The payment's capture mode (purchase: true), for a processor whose answer does not tell
   * whether an approval was captured (Adyen's /payments/details).
   */
  capture?: boolean;
  credentials: Record<string, string>;
}

/** `pending`: the shopper has not finished (or the processor has not decided) yet. */
export type AuthenticationResult = Exclude<AuthorizeResult, { outcome: 'requires_action' }> | { outcome: 'pending' };

export interface FollowUpRequest {
  idempotencyKey: string;
  processorReference: string;
  amount: number;
  currency: string;
  credentials: Record<string, string>;
}

export type FollowUpResult =
  | { outcome: 'succeeded'; processorReference: string; disputeOpened?: DisputeOpened }
  /** Accepted; confirmed or failed later by webhook (asynchronous modifications). */
  | { outcome: 'pending'; processorReference: string }
  | { outcome: 'failed'; code: string; category: DeclineCategory; message: string };

export interface ReversalRequest {
  /** The reversal's own key, so a retried reversal is applied once. */
  idempotencyKey: string;
  /** The authorization's key: whatever the processor did under it is undone, even when its answer never came back. */
  originalIdempotencyKey: string;
  amount: number;
  currency: string;
  credentials: Record<string, string>;
}

/**
 * `nothing_to_reverse`: no charge stands under the key (for the sandbox acquirer also: none ever
 * will, an authorization in flight or arriving later under that key is refused).
 */
export type ReversalResult =
  | { outcome: 'reversed'; processorReference: string; amount: number }
  | { outcome: 'nothing_to_reverse' }
  | { outcome: 'failed'; code: string; category: DeclineCategory; message: string };

export interface LookupRequest {
  /** The key the authorization was sent with. */
  idempotencyKey: string;
  /** When known, the processor's reference is asked for directly. */
  processorReference?: string;
  credentials: Record<string, string>;
}

export type LookupStatus = 'authorized' | 'captured' | 'declined' | 'voided' | 'refunded' | 'pending';

export type LookupResult =
  /** Nothing stands under the key: it never charged. */
  { outcome: 'not_found' } | { outcome: 'found'; processorReference: string; status: LookupStatus; amount: number };
