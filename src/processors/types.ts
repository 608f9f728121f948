import type { DeclineCode } from './declineCodes';

/**
 * The one interface every processor adapter implements (one folder per type under
 * src/processors/). A decline is data (`outcome: 'declined'`); an integration failure (network,
 * timeout, 5xx, unparseable answer) is thrown as a ProcessorTechnicalError.
 */
export type DeclineCategory = 'hard_decline' | 'soft_decline' | 'technical';

export interface ProcessorCapabilities {
  currencies: string[] | 'any';
  /** Accepts externally authenticated 3DS values (bring your own 3DS) and forwards them. */
  externalThreeDs: boolean;
  /** Runs its own hosted 3DS and ignores external values. */
  hostedThreeDs: boolean;
  captureModes: ('automatic' | 'manual')[];
  partialRefunds: boolean;
}

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
  /** payment id + attempt number: the acquirer dedupes on it, so a retried call never charges twice. */
  idempotencyKey: string;
  paymentId: string;
  amount: number;
  currency: string;
  card: CardDetails;
  capture: boolean;
  initiatedBy: 'customer' | 'merchant';
  threeDs?: ThreeDsValues;
  credentials: Record<string, string>;
}

/** The processor reports a chargeback opened against a captured charge (sandbox card 4000000000000259). */
export interface DisputeOpened {
  reason: string;
  amount: number;
}

export type AuthorizeResult =
  | { outcome: 'approved'; processorReference: string; captured: boolean; raw?: unknown; disputeOpened?: DisputeOpened }
  | { outcome: 'declined'; code: string; category: DeclineCategory; message: string; processorReference?: string }
  | { outcome: 'requires_3ds'; code: string; message: string };

export interface FollowUpRequest {
  idempotencyKey: string;
  processorReference: string;
  amount: number;
  currency: string;
  credentials: Record<string, string>;
}

export type FollowUpResult =
  | { outcome: 'succeeded'; processorReference: string; disputeOpened?: DisputeOpened }
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
 * `nothing_to_reverse`: no charge stands under the key, and none ever will (an authorization still
 * in flight or arriving later under that key is refused by the processor).
 */
export type ReversalResult =
  | { outcome: 'reversed'; processorReference: string; amount: number }
  | { outcome: 'nothing_to_reverse' }
  | { outcome: 'failed'; code: string; category: DeclineCategory; message: string };

export interface ProcessorAdapter {
  readonly type: string;
  readonly capabilities: ProcessorCapabilities;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  capture(request: FollowUpRequest): Promise<FollowUpResult>;
  void(request: FollowUpRequest): Promise<FollowUpResult>;
  refund(request: FollowUpRequest): Promise<FollowUpResult>;
  /** Voids or refunds whatever an authorization did, found by the idempotency key it was sent with. */
  reverseByIdempotencyKey(request: ReversalRequest): Promise<ReversalResult>;
}

/** An integration failure: retried by the activity's retry policy, then cascades. Its code is in the table. */
export class ProcessorTechnicalError extends Error {
  constructor(
    message: string,
    readonly code: DeclineCode = 'processor_unavailable',
  ) {
    super(message);
    this.name = 'ProcessorTechnicalError';
  }
}
