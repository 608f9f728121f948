import type { FunnelStep } from '../domain/funnelGraph';
import type { DomainErrorKind } from '../errors';
import type { Rejection } from '../payments/workflowTypes';

/**
 * The data the funnel session workflow, its activities and the API exchange. Pure types only:
 * workflow code imports this file.
 */
export type FunnelSessionStatus = 'active' | 'completed' | 'expired';
export type FunnelTrackingEvent = 'view' | 'enter' | 'convert' | 'custom';

export interface FunnelSessionInput {
  sessionId: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  funnelId: string;
  customerId: string | null;
  /** The funnel's graph when the session started: a later edit of the funnel does not move it. */
  steps: FunnelStep[];
  /** The session ends after this long without a tracking event, checkout or offer answer. */
  idleTimeoutMs: number;
}

/** The paid checkout the session's offers charge again: same card, same processor, same flow. */
export interface FunnelCheckout {
  paymentId: string;
  paymentInstrumentId: string;
  processorId: string;
  paymentFlowId: string;
  customerId: string;
  currency: string;
}

export type OfferAnswerStatus = 'declined' | 'processing' | 'succeeded' | 'failed';

export interface OfferAnswerView {
  stepId: string;
  accept: boolean;
  status: OfferAnswerStatus;
  paymentId: string | null;
  orderId: string | null;
  amount: number | null;
  currency: string | null;
  declineCode: string | null;
}

export interface FunnelSessionView {
  sessionId: string;
  funnelId: string;
  storeId: string;
  customerId: string | null;
  status: FunnelSessionStatus;
  currentStepId: string;
  checkoutPaymentId: string | null;
  answers: OfferAnswerView[];
}

/** What the workflow keeps about the session (the view plus the checkout's card and processor). */
export interface FunnelSessionState extends FunnelSessionView {
  checkout: FunnelCheckout | null;
}

export type CheckoutLoad = { kind: 'ok'; checkout: FunnelCheckout } | Rejection;

/** A refused update, as the validator's ApplicationFailure carries it (type = code, details[0] = kind). */
export interface FunnelRefusal {
  kind: DomainErrorKind;
  code: string;
  message: string;
}

/** How long a session waits for the customer when the request does not say (30 minutes). */
export const defaultIdleTimeoutMs = 30 * 60_000;
