import type { Prisma } from '../db/prisma';
import type { Payment } from '../generated/prisma/client';
import { unavailable } from '../errors';
import type { ProcessorEvent } from '../processors/types';
import type { ProcessorFollowUp, SettlementOperation } from './followUpTypes';
import { lockPayment, recordPaymentEvents, reopenSucceededRefund, settlePendingRefund } from './refundOutcomes';
import { closeDisputeFromProcessor, openDisputeFromProcessor, type DisputeEventResult } from './disputeEvents';
import { settleClaimedPayment } from './settlementOutcomes';

type Tx = Prisma.TransactionClient;

/**
 * What one verified processor event does to the engine's rows, inside the transaction that
 * records the event (so it happens once per vendor event id). Targets are found by the engine key
 * the adapter sent (a refund id, `<payment id>:capture`) or by the processor's references, and
 * always among this processor's payments: a signed event never reaches another processor's rows.
 */
export type EventEffect =
  | 'settled'
  | 'reopened'
  | 'already_settled'
  | 'review'
  | 'dispute_opened'
  | 'dispute_closed'
  | 'unmatched'
  | 'not_applicable'
  | 'nudged'
  | 'ignored';

export interface AppliedEvent {
  effect: EventEffect;
  paymentId?: string;
  refundId?: string;
  eventIds: string[];
  /** A workflow that may be waiting for this outcome: signalled once the transaction committed. */
  wake?: { workflowId: string; confirmation: ProcessorFollowUp };
  /** A payment waiting for the shopper's authentication at this attempt: told to ask the processor. */
  nudge?: { workflowId: string; attemptNumber: number };
}

const nothing = (effect: EventEffect): AppliedEvent => ({ effect, eventIds: [] });

export const refundFailureCode = 'refund_failed';
export const refundReversedCode = 'refund_reversed';
export const captureFailedCode = 'capture_failed';

function confirmationOf(event: ProcessorEvent, code: string): ProcessorFollowUp {
  return event.succeeded
    ? { outcome: 'succeeded', processorReference: event.operationReference ?? '', dispute: null }
    : { outcome: 'failed', code, message: event.reason ?? 'The processor failed the operation' };
}

/** The payment, also while its workflow has only recorded the approving attempt so far. */
async function paymentByReference(tx: Tx, processorId: string, reference: string | undefined) {
  if (!reference) return null;
  const payment = await tx.payment.findFirst({ where: { processorId, processorReference: reference } });
  if (payment) return payment;
  const attempt = await tx.paymentAttempt.findFirst({ where: { processorId, processorReference: reference } });
  return attempt ? tx.payment.findUnique({ where: { id: attempt.paymentId } }) : null;
}

/**
 * An event about a payment whose workflow has not finished recording it (Adyen sends CHARGEBACK or
 * CAPTURE_FAILED right after the authorisation): refused, nothing recorded, so the vendor sends it
 * again later (any non-2xx makes Stripe and Adyen retry).
 */
function requireSettledPayment(payment: { id: string; status: string }): void {
  if (payment.status === 'processing' || payment.status === 'requires_action')
    throw unavailable(
      `Payment ${payment.id} is still being processed; send the event again later`,
      'PAYMENT_IN_FLIGHT',
    );
}

async function applyRefundEvent(tx: Tx, processorId: string, event: ProcessorEvent): Promise<AppliedEvent> {
  const byKey = event.engineKey?.startsWith('re_')
    ? await tx.refund.findFirst({ where: { id: event.engineKey, payment: { processorId } } })
    : null;
  const refund =
    byKey ??
    (event.operationReference
      ? await tx.refund.findFirst({ where: { processorReference: event.operationReference, payment: { processorId } } })
      : null);
  if (!refund) return nothing('unmatched');
  await lockPayment(tx, refund.paymentId);
  const current = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
  const target = { paymentId: refund.paymentId, refundId: refund.id };
  if (current.status === 'pending') {
    const settled = await settlePendingRefund(
      tx,
      refund.id,
      event.succeeded
        ? { succeeded: true, processorReference: event.operationReference ?? null }
        : { succeeded: false, code: refundFailureCode, message: event.reason ?? null },
    );
    return {
      ...target,
      effect: settled.effect,
      eventIds: settled.eventIds,
      wake: { workflowId: refund.id, confirmation: confirmationOf(event, refundFailureCode) },
    };
  }
  if (current.status === 'succeeded' && !event.succeeded) {
    const reopened = await reopenSucceededRefund(tx, refund.id, refundReversedCode);
    return { ...target, effect: reopened.effect, eventIds: reopened.eventIds };
  }
  return { ...target, effect: 'already_settled', eventIds: [] };
}

/** `<payment id>:capture` / `:void`, the key the settlement workflow sends its call with. */
function settlementKey(engineKey: string | undefined): { paymentId: string; operation: string } | null {
  const match = /^(pay_[0-9A-Za-z]+):(capture|void)$/.exec(engineKey ?? '');
  return match ? { paymentId: match[1]!, operation: match[2]! } : null;
}

async function applySettlementEvent(
  tx: Tx,
  processorId: string,
  event: ProcessorEvent,
  operation: SettlementOperation,
): Promise<AppliedEvent> {
  const key = settlementKey(event.engineKey);
  const payment = key
    ? await tx.payment.findFirst({ where: { id: key.paymentId, processorId } })
    : await paymentByReference(tx, processorId, event.paymentReference);
  if (!payment) return nothing('unmatched');
  const metadata = (payment.metadata as Record<string, unknown> | null) ?? {};
  const owner = metadata.settlement;
  const pending = metadata.pendingAtProcessor as { operation?: string; amount?: number } | undefined;
  // Only the operation in flight is settled: a CAPTURE for an automatic capture (already counted)
  // or for another operation changes nothing.
  const inFlight = pending?.operation ?? key?.operation;
  if (payment.status !== 'processing' || typeof owner !== 'string' || inFlight !== operation)
    return { paymentId: payment.id, ...nothing('not_applicable') };
  const amount = pending?.amount ?? event.amount ?? payment.amount;
  const settled = await settleClaimedPayment(
    tx,
    { paymentId: payment.id, owner, operation, amount },
    event.succeeded ? { outcome: 'succeeded' } : { outcome: 'failed' },
  );
  return {
    paymentId: payment.id,
    effect: settled.effect === 'pending' ? 'already_settled' : settled.effect,
    eventIds: settled.eventIds,
    wake: { workflowId: owner, confirmation: confirmationOf(event, 'processor_declined') },
  };
}

/**
 * A capture counted as done failed later (Adyen CAPTURE_FAILED): the payment goes to review as a
 * payment whose processor outcome is in doubt does (`failed` + `metadata.review`, listed by
 * `admin needs-review`, settled by `resolve-review`). Only a captured payment with nothing refunded.
 */
async function applyCaptureFailed(tx: Tx, processorId: string, event: ProcessorEvent): Promise<AppliedEvent> {
  const payment = await paymentByReference(tx, processorId, event.paymentReference);
  if (!payment) return nothing('unmatched');
  requireSettledPayment(payment);
  const review = JSON.stringify({ reason: captureFailedCode, processorId, idempotencyKey: `${payment.id}:capture` });
  const message = event.reason ?? 'The processor failed the capture after confirming it';
  const moved = await tx.$executeRaw`
    UPDATE "payments" SET "status" = 'failed', "amount_captured" = 0, "captured_at" = NULL,
           "decline_code" = ${captureFailedCode}, "decline_category" = 'technical', "decline_message" = ${message},
           "metadata" = COALESCE("metadata", '{}'::jsonb) || jsonb_build_object('review', ${review}::jsonb),
           "updated_at" = CURRENT_TIMESTAMP
     WHERE "id" = ${payment.id} AND "status" = 'succeeded' AND "amount_refunded" = 0`;
  if (moved !== 1) return { paymentId: payment.id, ...nothing('not_applicable') };
  const eventIds = await recordPaymentEvents(tx, payment, [
    [
      's_payment_failed',
      {
        paymentId: payment.id,
        orderId: payment.orderId,
        amount: payment.amount,
        currency: payment.currency,
        status: 'failed',
        declineCode: captureFailedCode,
        declineCategory: 'technical',
      },
    ],
  ]);
  return { paymentId: payment.id, effect: 'review', eventIds };
}

/** A dispute event (opened, won, lost) about one of this processor's settled payments. */
async function applyDisputeEvent(
  tx: Tx,
  processorId: string,
  event: ProcessorEvent,
  apply: (payment: Payment) => Promise<DisputeEventResult>,
): Promise<AppliedEvent> {
  const payment = await paymentByReference(tx, processorId, event.paymentReference);
  if (!payment) return nothing('unmatched');
  requireSettledPayment(payment);
  return { paymentId: payment.id, ...(await apply(payment)) };
}

export function applyProcessorEvent(tx: Tx, processorId: string, event: ProcessorEvent): Promise<AppliedEvent> {
  switch (event.kind) {
    case 'refund':
      return applyRefundEvent(tx, processorId, event);
    case 'capture':
    case 'void':
      return applySettlementEvent(tx, processorId, event, event.kind);
    case 'capture_failed':
      return applyCaptureFailed(tx, processorId, event);
    case 'dispute_opened':
      return applyDisputeEvent(tx, processorId, event, (payment) => openDisputeFromProcessor(tx, payment, event));
    case 'dispute_won':
    case 'dispute_lost': {
      const outcome = event.kind === 'dispute_won' ? 'won' : 'lost';
      return applyDisputeEvent(tx, processorId, event, (payment) =>
        closeDisputeFromProcessor(tx, payment, event, outcome),
      );
    }
    case 'authorization':
      return applyAuthorizationEvent(tx, processorId, event);
    case 'ignored':
      return Promise.resolve(nothing('ignored'));
  }
}

/**
 * An authorization's outcome reported by the processor: when its attempt (named by the key the
 * adapter sent, `<payment id>:<attempt number>`, of this processor) still waits for the shopper,
 * the payment's workflow is told to ask the processor. The event decides nothing by itself: the
 * workflow reads the result from the processor, as it does when the shopper returns.
 */
async function applyAuthorizationEvent(tx: Tx, processorId: string, event: ProcessorEvent): Promise<AppliedEvent> {
  const match = /^(pay_[A-Za-z0-9]+):(\d{1,3})$/.exec(event.engineKey ?? '');
  if (!match) return nothing('unmatched');
  const paymentId = match[1]!;
  const attemptNumber = Number(match[2]);
  const waiting = await tx.paymentAttempt.findFirst({
    where: { paymentId, attemptNumber, processorId, outcome: 'requires_action' },
    select: { id: true },
  });
  if (!waiting) return { ...nothing('not_applicable'), paymentId };
  return { effect: 'nudged', paymentId, eventIds: [], nudge: { workflowId: paymentId, attemptNumber } };
}
