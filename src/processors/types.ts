import type { z } from 'zod';
import type { DeclineCode } from './declineCodes';
import type {
  AuthenticationResult,
  AuthenticationResultRequest,
  AuthorizeRequest,
  AuthorizeResult,
  FollowUpRequest,
  FollowUpResult,
  LookupRequest,
  LookupResult,
  ReversalRequest,
  ReversalResult,
} from './operations';

/**
 * The processor contract (one folder per type under src/processors/, one registry line each). A
 * decline is data (`outcome: 'declined'`); an integration failure (network, timeout, 5xx,
 * unparseable answer) is thrown as a ProcessorTechnicalError. The requests and results of the
 * operations are in operations.ts, re-exported here.
 */
export type * from './operations';

/** Static data of a processor type, read by routing, the 3DS plan and the processors API without building an adapter. */
export interface ProcessorCapabilities {
  /** ISO 4217, upper case. Routing skips a processor that does not take the payment's currency. */
  currencies: readonly string[] | 'any';
  /** automatic = purchase intent (authorize and capture in one call), manual = auth intent. */
  captureModes: readonly ('automatic' | 'manual')[];
  partialCapture: boolean;
  partialRefunds: boolean;
  multipleRefunds: boolean;
  void: boolean;
  /** Accepts externally authenticated 3DS values (bring your own 3DS) and forwards them. */
  externalThreeDs: boolean;
  /** Runs its own hosted 3DS and ignores external values. */
  hostedThreeDs: boolean;
  /** Can be the 3-D Secure server of engine-run authentication (an authentication-only flow). */
  threeDsProvider: boolean;
  /**
   * When the issuer asks for authentication, answers `requires_action` with the page to send the
   * shopper to (given a return URL), and tells the result afterwards (`authenticationResult`).
   */
  stepUp: boolean;
  networkTokens: boolean;
  /** Capture, void and refund are answered "received" and confirmed later by webhook. */
  asyncModifications: boolean;
}

export interface AdapterDeps {
  /** Base URL of the sandbox (the sandbox acquirer lives under it); other vendors use their own API hosts. */
  sandboxUrl: string;
  timeoutMs: number;
}

export interface ProcessorAdapter {
  readonly type: string;
  readonly capabilities: ProcessorCapabilities;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  capture(request: FollowUpRequest): Promise<FollowUpResult>;
  void(request: FollowUpRequest): Promise<FollowUpResult>;
  refund(request: FollowUpRequest): Promise<FollowUpResult>;
  /** Voids or refunds whatever an authorization did, found by the idempotency key it was sent with. */
  reverseByIdempotencyKey(request: ReversalRequest): Promise<ReversalResult>;
  /** What stands at the processor under an authorization's key (or reference): resolves an unknown outcome. */
  lookup(request: LookupRequest): Promise<LookupResult>;
  /** A processor with the `stepUp` capability: the outcome of an authorization that answered `requires_action`. */
  authenticationResult?(request: AuthenticationResultRequest): Promise<AuthenticationResult>;
}

/** One per processor type, in src/processors/<type>/index.ts; the registry has one line per definition. */
export interface ProcessorDefinition {
  type: string;
  /** Static data, readable without building an adapter. */
  capabilities: ProcessorCapabilities;
  /**
   * A simulator of the engine's own sandbox: test mode only. A live processor of this type is
   * refused on create and update (400 `TEST_PROCESSOR_IN_LIVE_MODE`) and never routed to.
   */
  testOnly?: boolean;
  /** Validated on POST /processors and /processors/update. */
  credentialsSchema: z.ZodType<Record<string, string>>;
  /**
   * When the (parsed) credentials reach the vendor's environment of the other mode (a Stripe
   * `sk_test_…` key on a live processor, an Adyen `liveUrlPrefix` on a test one): the field and
   * what to send instead. Absent: the credentials do not tell the environment.
   */
  credentialsModeProblem?(
    credentials: Record<string, string>,
    mode: 'test' | 'live',
  ): { field: string; message: string } | undefined;
  /**
   * The vendor's decline/error code → the engine's code in src/processors/declineCodes.ts (its
   * table gives category hard/soft/technical and outcomeUnknown). Unknown vendor codes map to a
   * sensible default.
   */
  classify(vendorCode: string): DeclineCode;
  createAdapter(deps: AdapterDeps): ProcessorAdapter;
  /** Asynchronous outcomes by webhook (`POST /processor-webhooks/{processorId}`); absent: the type sends none. */
  webhooks?: ProcessorWebhooks;
}

/**
 * What a processor's webhook event means for the engine:
 * - capture / void / refund: the processor confirms (`succeeded`) or fails an operation it answered
 *   `pending`; a failed refund that had been confirmed reopens its amount (Adyen REFUND_FAILED,
 *   Stripe refund.failed);
 * - capture_failed: a capture already counted as done failed later (Adyen CAPTURE_FAILED): review;
 * - dispute_opened: a chargeback on a captured payment;
 * - dispute_won / dispute_lost: the outcome of a dispute the processor opened (Stripe
 *   charge.dispute.closed; Adyen CHARGEBACK_REVERSED, SECOND_CHARGEBACK);
 * - authorization: the outcome of an authorization that waited for the shopper's authentication
 *   (step-up): the waiting payment is told to ask the processor (the event itself decides nothing);
 * - ignored: acknowledged and recorded, nothing to do (reversals, notices …).
 */
export type ProcessorEventKind =
  | 'capture'
  | 'void'
  | 'refund'
  | 'capture_failed'
  | 'dispute_opened'
  | 'dispute_won'
  | 'dispute_lost'
  | 'authorization'
  | 'ignored';

export interface ProcessorEvent {
  /** Stable across the vendor's redeliveries of the event: the engine applies each once. */
  vendorEventId: string;
  /** The vendor's own event type (`refund.updated`, `REFUND`). */
  vendorType: string;
  kind: ProcessorEventKind;
  succeeded: boolean;
  /** The engine's key the operation was sent with (a refund id, `<payment id>:capture`), when the vendor echoes it. */
  engineKey?: string;
  /** The processor's reference of the payment (PaymentIntent id, Adyen pspReference). */
  paymentReference?: string;
  /** The processor's reference of the operation itself (a Stripe refund id, the modification's pspReference). */
  operationReference?: string;
  /** Minor units of the engine's currency (dispute amounts). */
  amount?: number;
  currency?: string;
  reason?: string;
}

export interface WebhookDelivery {
  /** The body exactly as received: signatures are computed over bytes, not over parsed JSON. */
  rawBody: Buffer;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  credentials: Record<string, string>;
  /** The processor is a live one (a test notification is refused there, and the reverse). */
  live: boolean;
}

export type WebhookVerification =
  | { ok: true; events: ProcessorEvent[] }
  /** no_secret: the credentials carry no signing secret, so nothing can be accepted. */
  | { ok: false; reason: 'no_secret' | 'bad_signature' | 'malformed'; message: string };

export interface ProcessorWebhooks {
  /** Verifies the vendor's signature over the delivery and parses it into engine events. Pure. */
  verify(delivery: WebhookDelivery): WebhookVerification;
  /** Fields the vendor expects in a 2xx answer (Adyen: `notificationResponse: "[accepted]"`). */
  acknowledgement?: Record<string, string>;
}

/**
 * What the `webhooks.ts` of a type whose vendor sends no notifications exports instead of a
 * ProcessorWebhooks: the reason, written down (its definition then has no `webhooks`).
 */
export interface NoProcessorWebhooks {
  readonly none: string;
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
