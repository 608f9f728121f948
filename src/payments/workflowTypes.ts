import type { RoutingFlow, RoutingProcessor } from '../domain/routing';
import type { DomainErrorData, DomainErrorKind } from '../errors';
import type { AuthenticationAction, BrowserInfo, DeclineCategory, ThreeDsValues } from '../processors/types';

/**
 * The data the payment workflow and its activities exchange. Pure types and functions only:
 * workflow code imports this file, so nothing here may do I/O.
 */
export type PaymentIntent = 'purchase' | 'auth';
export type InitiatedBy = 'customer' | 'merchant';
export type PaymentSource = 'upsell' | 'checkout' | 'offer' | 'missing_club' | 'forced';

/** Status of a payment row; `processing` until the workflow decides. */
export type PaymentStatus =
  | 'processing'
  | 'requires_action'
  | 'authorized'
  | 'succeeded'
  | 'failed'
  | 'canceled'
  | 'refunded'
  | 'partially_refunded';

/**
 * The PaymentStatus search attribute: the row's status, or `rejected` (refused before any row was
 * written) or `needs_review` (failed while a processor may still hold a charge; see `FinalizeInput.review`).
 */
export type PaymentSearchStatus = PaymentStatus | 'rejected' | 'needs_review';

/**
 * A payment's first workflow task calls the processor (a local activity), so a worker killed in
 * the middle of it is only noticed when the task times out: 4 s instead of the server's 10 s. A
 * live worker whose local activity runs longer is not cut off: it tells the server it is alive
 * (a workflow task heartbeat) at 80 % of this timeout. The API's payments and the child payments
 * of subscriptions and funnels start with it.
 */
export const paymentWorkflowTaskTimeout = '4 seconds';

export interface PaymentWorkflowInput {
  paymentId: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  customerId: string;
  /** Null only for a free checkout session (amount 0): nothing is charged, so no card is needed. */
  paymentInstrumentId: string | null;
  amount: number;
  currency: string;
  intent: PaymentIntent;
  initiatedBy: InitiatedBy;
  source?: PaymentSource | null;
  /** Null only for a free checkout session: no processor is routed to. */
  paymentFlowId: string | null;
  threedsSessionId?: string | null;
  /** The API's base URL as the caller reached it: the 3DS challenge return link uses it when PUBLIC_BASE_URL is unset. */
  returnBaseUrl?: string | null;
  /** Set by pay-v2: the session is claimed, then marked paid with its order on success. */
  checkoutSessionId?: string | null;
  /**
   * Set by /payments/process: an existing order this payment pays. A subscription charge names the
   * order its charge key will record (`subscriptionOrderId`), written once the charge is paid.
   */
  orderId?: string | null;
  /** The subscription whose charge this is (renewals, switches). */
  subscriptionId?: string | null;
  clientIp?: string | null;
  /** BLIK-style 6-character code; carried in metadata, card processors ignore it. */
  blikCode?: string | null;
  /**
   * Tried first whatever the flow's sticky setting (a funnel upsell charges on the processor that
   * took its checkout); the flow's cascade still follows a soft decline.
   */
  pinnedProcessorId?: string | null;
  /**
   * Where the shopper's browser goes once a processor-hosted authentication is over, with
   * `paymentId` and `status` added to its query; without it the engine shows the result itself.
   */
  returnUrl?: string | null;
  /** The shopper's browser, passed to the processor for 3-D Secure 2. */
  browserInfo?: BrowserInfo;
  /**
   * Set on the runs the API starts: the finalize step dispatches the payment's events after its
   * commit, so the run answers and completes in one workflow task. Runs without it (those started
   * before, child payments of subscriptions and funnels) schedule a dispatch activity. An input
   * flag rather than a `patched()` marker: the history keeps the input, and a patch would add a
   * marker and a search-attribute upsert to every payment.
   */
  dispatchAtFinalize?: boolean;
}

/** A payment that charges a card: validation made sure it names a card and a flow. */
export type ChargeInput = PaymentWorkflowInput & { paymentInstrumentId: string; paymentFlowId: string };

/** The input as a card charge, or null when it names no card or no flow (only a free checkout may). */
export function chargeOf(input: PaymentWorkflowInput): ChargeInput | null {
  const { paymentInstrumentId, paymentFlowId } = input;
  return paymentInstrumentId && paymentFlowId ? { ...input, paymentInstrumentId, paymentFlowId } : null;
}

/** A request refused before any side effect, as data: its domain error (src/http answers it with the kind's status). */
export interface Rejection {
  kind: 'rejected';
  error: DomainErrorData;
}

export const rejection = (kind: DomainErrorKind, code: string, message: string): Rejection => ({
  kind: 'rejected',
  error: { kind, code, message },
});

/** What preparePayment loaded and checked before anything was written. */
export interface PaymentContext {
  /** authenticationTimeoutMinutes: absent in histories recorded before flows had it (15 then). */
  flow: RoutingFlow & { id: string; threeDsEnabled: boolean; authenticationTimeoutMinutes?: number };
  processors: (RoutingProcessor & { type: string; enable3DS: boolean })[];
  /** The customer's last succeeded payment's processor in this flow (sticky routing). */
  stickyProcessorId: string | null;
}

/**
 * `noBlockRules`: the account had no enabled block rule when prepare read (in the same statement as
 * the rest), so the workflow skips checkBlockRules. Absent in histories recorded before it was
 * read there: those replay the check as they ran it.
 */
export type PrepareResult =
  | { kind: 'ready'; context: PaymentContext; noBlockRules?: true }
  /** A checkout session a discount brought to 0: nothing to charge, no processor is called. */
  | { kind: 'free'; noBlockRules?: true }
  /** Refused before any side effect (no payment row). */
  | Rejection;

export interface AttemptRecord {
  attemptNumber: number;
  processorId: string;
  /** requires_action: the processor's authentication page was handed out (step-up); the attempt's row until it settles. */
  outcome: 'approved' | 'declined' | 'error' | 'requires_3ds' | 'requires_action';
  errorCode: string | null;
  category: DeclineCategory | null;
  message: string | null;
  processorReference: string | null;
}

export interface AuthorizeAttemptInput {
  paymentId: string;
  attemptNumber: number;
  processorId: string;
  accountId: string;
  mode: 'test' | 'live';
  paymentInstrumentId: string;
  amount: number;
  currency: string;
  capture: boolean;
  initiatedBy: InitiatedBy;
  threeDs?: ThreeDsValues;
  /**
   * The payment can wait for the shopper (customer-initiated): a processor with the `stepUp`
   * capability gets a return link built on this base URL, and may answer `requires_action`.
   */
  stepUp?: { returnBaseUrl: string | null };
  browserInfo?: BrowserInfo;
  shopperIp?: string | null;
}

/** A processor's authentication page handed out for one attempt: the start link (the payment's redirectUrl) and where it leads. */
export interface StepUpStart {
  redirectUrl: string;
  action: AuthenticationAction;
}

/** Details of an authorizeAttempt failure: its code and whether any try may have charged. */
export interface AuthorizeFailureDetails {
  code: string;
  mayHaveCharged: boolean;
}

export interface ReverseAttemptInput {
  paymentId: string;
  attemptNumber: number;
  processorId: string;
  accountId: string;
  mode: 'test' | 'live';
  amount: number;
  currency: string;
}

/** An attempt waiting on the shopper at the processor's authentication page (step-up). */
export interface StepUpCheckInput extends ReverseAttemptInput {
  processorReference: string;
  /** What the browser brought back from the processor's page (Adyen's redirectResult), when anything. */
  returnData?: Record<string, string>;
}

/** The attempt as it now stands: settled (approved or declined, its row written) or still waiting. */
export type StepUpCheck = { settled: true; attempt: AuthorizeAttemptResult } | { settled: false };

export type ReverseAttemptResult =
  | { outcome: 'reversed'; processorReference: string; amount: number }
  | { outcome: 'nothing_to_reverse' }
  | { outcome: 'refused'; code: string; message: string };

export type AuthorizeAttemptResult = AttemptRecord & {
  captured: boolean;
  /** The acquirer opened a dispute on this approval (sandbox dispute card). */
  dispute: { amount: number; reason: string | null } | null;
  /** Set with outcome `requires_action`. */
  stepUp?: StepUpStart;
};

export type FinalStatus = 'succeeded' | 'authorized' | 'failed';

export interface FinalizeInput {
  paymentId: string;
  status: FinalStatus;
  processorId: string | null;
  processorReference: string | null;
  captured: boolean;
  declineCode: string | null;
  declineCategory: DeclineCategory | null;
  declineMessage: string | null;
  /** The payment was stopped by a block rule (event s_payment_blocked). */
  blockedByRuleId?: string | null;
  dispute?: { amount: number; reason: string | null } | null;
  /** A processor may still hold a charge for this failed payment: kept in the row's metadata for an operator. */
  review?: PaymentReview | null;
  /**
   * The finalize step itself dispatches the events it recorded, right after commit and without
   * holding up the answer (runs from before this flag schedule a dispatch activity instead).
   */
  dispatchAfterCommit?: boolean;
}

export interface PaymentReview {
  reason: 'reversal_unconfirmed';
  processorId: string;
  /** The attempt whose idempotency key the processor may hold a charge under. */
  attemptNumber: number;
}

export interface OrderSummary {
  id: string;
  status: string;
  totalAmount: number;
  currency: string;
}

export interface FinalizeResult {
  eventIds: string[];
  order: OrderSummary | null;
  /**
   * Set when the payment was closed already (this call repeats one that committed, or the run's
   * lost first workflow task is being done again): what was recorded then, which the API answers.
   */
  recorded?: { status: PaymentStatus; declineCode: string | null; declineMessage: string | null };
}

/** What the API answers with: terminal, requires_action, or still processing at the deadline. */
export type PaymentOutcome =
  | Rejection
  | {
      kind: 'payment';
      paymentId: string;
      status: PaymentStatus;
      amount: number;
      currency: string;
      declineCode: string | null;
      declineMessage: string | null;
      redirectUrl: string | null;
      order: OrderSummary | null;
    };

export type PaymentStep =
  'validating' | 'block_rules' | 'three_ds' | 'routing' | 'authorizing' | 'authenticating' | 'recording' | 'done';

export interface PaymentStateView {
  step: PaymentStep;
  status: PaymentSearchStatus;
  attempts: AttemptRecord[];
  routeOrder: string[];
  /** While the shopper is at a processor's authentication page: which attempt, and the page. */
  stepUp?: { attemptNumber: number; action: AuthenticationAction } | null;
}

export const blockedByRuleCode = 'blocked_by_rule';
export const noProcessorCode = 'no_eligible_processor';
export const outcomeUnknownCode = 'processor_outcome_unknown';
