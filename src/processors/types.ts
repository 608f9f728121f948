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

export interface ProcessorAdapter {
  readonly type: string;
  readonly capabilities: ProcessorCapabilities;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  capture(request: FollowUpRequest): Promise<FollowUpResult>;
  void(request: FollowUpRequest): Promise<FollowUpResult>;
  refund(request: FollowUpRequest): Promise<FollowUpResult>;
}

/** An integration failure: retried by the activity's retry policy, then cascades. */
export class ProcessorTechnicalError extends Error {
  constructor(message: string, readonly code = 'processor_unavailable') {
    super(message);
    this.name = 'ProcessorTechnicalError';
  }
}
