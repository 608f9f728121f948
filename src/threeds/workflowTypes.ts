import type { ThreeDsValues } from '../processors/types';

/**
 * What the 3DS workflows and their activities exchange. Pure types: workflow code imports this.
 */
export interface ThreeDsFinal {
  kind: 'final';
  sessionId: string;
  status: 'authenticated' | 'failed';
  transStatus: string | null;
  /** Set when authenticated: the values a processor may receive, exactly as stored. */
  values: ThreeDsValues | null;
  failureReason: string | null;
}

export interface ThreeDsChallenge {
  kind: 'challenge';
  sessionId: string;
  challengeUrl: string;
}

/** A check of the 3DS server after the browser came back: final, or still open. */
export type ThreeDsCheck = ThreeDsFinal | { kind: 'pending'; sessionId: string };

export interface StartAuthenticationInput {
  sessionId: string;
  /** Base URL the API was called on, used for the challenge return link when PUBLIC_BASE_URL is unset. */
  returnBaseUrl?: string | null;
  /** The workflow that waits for the challenge (the return endpoint updates it). */
  workflowId: string;
  amount: number;
  currency: string;
  deviceChannel: 'browser' | '3ri';
  challengePreference?: string | null;
  merchant?: Record<string, string> | null;
  cardholder?: { name?: string; email?: string } | null;
}

export type ThreeDsDecision = ThreeDsFinal | ThreeDsChallenge;

/** The standalone authentication workflow's input (workflow id = session id). */
export type ThreeDsAuthenticationInput = StartAuthenticationInput;

/**
 * The payment's 3DS step, decided by an activity from the session, flow and processors:
 * proceed without 3DS, use a stored session's values, decline, or authenticate now.
 */
export type ThreeDsPlan =
  | { kind: 'skip' }
  | { kind: 'use'; values: ThreeDsValues | null; sessionId: string }
  | { kind: 'declined'; code: string; message: string }
  /** deviceChannel is absent in plans recorded before 3RI existed: those are browser. */
  | { kind: 'authenticate'; sessionId: string; deviceChannel?: 'browser' | '3ri' };

/** What the payment workflow's 3DS step (workflows/payments/threeDs.ts) hands its planning activity. */
export interface PaymentThreeDsInput {
  paymentId: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  customerId: string;
  paymentInstrumentId: string;
  threedsSessionId?: string | null;
  initiatedBy: 'customer' | 'merchant';
  flowThreeDsEnabled: boolean;
  processors: { id: string; enable3DS: boolean; type: string }[];
  amount: number;
  currency: string;
  /** The API's base URL as the caller reached it, for the challenge return link (PUBLIC_BASE_URL wins). */
  returnBaseUrl?: string | null;
}
