import type { Db, Prisma } from '../db/prisma';
import { settlementAmount } from '../domain/paymentAmounts';
import { recordDispute } from './disputes';
import type { FollowUpCall, FollowUpOutcome, SettlementInput, SettlementOperation } from './followUpTypes';
import { recordPaymentEvents } from './refundOutcomes';
import { rejection } from './workflowTypes';

type Tx = Prisma.TransactionClient;

/**
 * The end of a capture or void, written once whoever learns it first: the settlement workflow
 * (the processor's answer, or its lookup after a long wait) or the processor-webhook route. The
 * workflow claimed the payment (`processing`, `metadata.settlement` = its workflow id); only the
 * claim's owner moves it on, with a conditional UPDATE, so a repeat finds it settled.
 */
export type SettlementResult =
  | { outcome: 'succeeded'; dispute?: { amount: number; reason: string | null } | null }
  | { outcome: 'pending'; processorReference: string }
  | { outcome: 'failed' };

export interface ClaimedSettlement {
  paymentId: string;
  /** The workflow that claimed the payment (`metadata.settlement`). */
  owner: string;
  operation: SettlementOperation;
  amount: number;
}

export type SettlementEffect = 'settled' | 'pending' | 'already_settled';

type Metadata = Record<string, unknown>;

export async function settleClaimedPayment(tx: Tx, claim: ClaimedSettlement, result: SettlementResult) {
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: claim.paymentId } });
  const metadata: Metadata = { ...((payment.metadata as Metadata | null) ?? {}) };
  const answer = (effect: SettlementEffect, status: string, eventIds: string[] = []) => ({ effect, status, eventIds });
  if (payment.status !== 'processing' || metadata.settlement !== claim.owner)
    return answer('already_settled', payment.status);
  const claimed = { id: payment.id, status: 'processing', metadata: { path: ['settlement'], equals: claim.owner } };
  if (result.outcome === 'pending') {
    // The claim stays (processing, metadata.settlement) until the processor confirms, so no other
    // capture or void can start meanwhile; nothing is recorded as done.
    const pendingAtProcessor = {
      operation: claim.operation,
      processorReference: result.processorReference,
      amount: claim.amount,
    };
    await tx.payment.updateMany({
      where: claimed,
      data: { metadata: { ...metadata, pendingAtProcessor } as Prisma.InputJsonObject },
    });
    return answer('pending', payment.status);
  }
  delete metadata.settlement;
  delete metadata.pendingAtProcessor;
  if (result.outcome === 'failed') {
    const moved = await tx.payment.updateMany({
      where: claimed,
      data: { status: 'authorized', metadata: metadata as Prisma.InputJsonObject },
    });
    return moved.count === 1 ? answer('settled', 'authorized') : answer('already_settled', payment.status);
  }
  const now = new Date();
  const capture = claim.operation === 'capture';
  const status = capture ? 'succeeded' : 'canceled';
  const moved = await tx.payment.updateMany({
    where: claimed,
    data: {
      status,
      metadata: metadata as Prisma.InputJsonObject,
      ...(capture ? { amountCaptured: claim.amount, capturedAt: now } : { canceledAt: now }),
    },
  });
  if (moved.count !== 1) return answer('already_settled', payment.status);
  const base = {
    paymentId: payment.id,
    orderId: payment.orderId,
    amount: claim.amount,
    currency: payment.currency,
    processorId: payment.processorId,
  };
  const events: [string, Record<string, unknown>][] = [
    [capture ? 's_payment_succeeded' : 's_payment_voided', { ...base, status, captured: capture }],
  ];
  const eventIds = await recordPaymentEvents(tx, payment, events);
  if (capture && result.dispute) {
    const { amount, reason } = result.dispute;
    eventIds.push((await recordDispute(tx, payment, { amount, reason, status: 'needs_response' })).eventId);
  }
  return answer('settled', status, eventIds);
}

/**
 * Claims an authorized payment for a capture or void with a conditional UPDATE (authorized →
 * processing, the claiming workflow noted in metadata), so a capture and a void, or two captures,
 * can never both reach the processor. Answers the processor call to make, or the refusal; a
 * repeat by the same workflow after its commit answers the same call.
 */
export async function claimPaymentForSettlement(
  db: Db,
  input: SettlementInput & { workflowId: string },
): Promise<FollowUpCall | Extract<FollowUpOutcome, { kind: 'rejected' }>> {
  const payment = await db.payment.findFirst({
    where: { id: input.paymentId, accountId: input.accountId, mode: input.mode },
  });
  if (!payment) return rejection('not_found', 'NOT_FOUND', 'Payment not found');
  const settled = settlementAmount(input.operation, payment.amount, input.amount);
  if (!settled.ok)
    return rejection('invalid', 'AMOUNT_EXCEEDS_AUTHORIZATION', `At most ${payment.amount} can be captured`);
  const { amount } = settled;
  const call = {
    processorId: payment.processorId ?? '',
    processorReference: payment.processorReference ?? '',
    amount,
    currency: payment.currency,
    idempotencyKey: `${payment.id}:${input.operation}`,
  };
  const owner = { settlement: input.workflowId };
  const ours = (payment.metadata as Record<string, unknown> | null)?.settlement === input.workflowId;
  if (payment.status === 'processing' && ours) return call; // a retried activity after its commit
  const claimed = await db.payment.updateMany({
    where: { id: payment.id, status: 'authorized', processorReference: { not: null } },
    data: {
      status: 'processing',
      metadata: { ...((payment.metadata as Record<string, unknown> | null) ?? {}), ...owner },
    },
  });
  if (claimed.count === 0) {
    const verb = input.operation === 'capture' ? 'captured' : 'voided';
    return rejection(
      'conflict',
      input.operation === 'capture' ? 'PAYMENT_NOT_CAPTURABLE' : 'PAYMENT_NOT_VOIDABLE',
      `Only an authorized payment can be ${verb}; this one is ${payment.status}`,
    );
  }
  return call;
}

/** settleClaimedPayment in a transaction of its own (the capture or void workflow's last step). */
export async function settleClaimedPaymentNow(db: Db, claim: ClaimedSettlement, result: SettlementResult) {
  return db.$transaction((tx) => settleClaimedPayment(tx, claim, result));
}
