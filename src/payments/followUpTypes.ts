import type { Rejection } from './workflowTypes';

/** Data of the money follow-ups (capture, void, refund) shared by workflows and activities. Pure types. */
export type SettlementOperation = 'capture' | 'void';

export interface SettlementInput {
  operation: SettlementOperation;
  paymentId: string;
  accountId: string;
  mode: 'test' | 'live';
  /** capture only: minor units, at most the authorized amount; default all of it. */
  amount?: number | null;
  /** How long a `pending` answer waits for the processor's webhook before a lookup (default 24 h). */
  confirmationWaitMs?: number;
}

export interface RefundInput {
  refundId: string;
  paymentId: string;
  accountId: string;
  mode: 'test' | 'live';
  /** Minor units; default what is left to refund. */
  amount?: number | null;
  reason?: string | null;
  /** How long a `pending` answer waits for the processor's webhook before a lookup (default 24 h). */
  confirmationWaitMs?: number;
}

export type FollowUpRefusal = Rejection;

/** The processor's answer to a capture, void or refund; technical failures whose retries ran out become `failed`. */
export type ProcessorFollowUp =
  | { outcome: 'succeeded'; processorReference: string; dispute: { amount: number; reason: string | null } | null }
  /** The processor accepted it and confirms (or fails) it later by webhook: nothing is final yet. */
  | { outcome: 'pending'; processorReference: string }
  | { outcome: 'failed'; code: string; message: string };

export type FollowUpOutcome =
  | FollowUpRefusal
  | {
      kind: 'done';
      paymentId: string;
      paymentStatus: string;
      /** The processor did not refuse; with `pending` it has not confirmed either. */
      succeeded: boolean;
      /** The processor accepted the operation asynchronously: the payment or refund stays pending until it confirms. */
      pending?: boolean;
      code: string | null;
      message: string | null;
      refundId?: string;
      eventIds: string[];
    };

/** What a begun follow-up needs to call the processor. */
export interface FollowUpCall {
  processorId: string;
  processorReference: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
}
