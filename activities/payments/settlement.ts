import { ApplicationFailure } from '@temporalio/activity';
import { Prisma } from '../../src/db/prisma';
import { newId } from '../../src/domain/ids';
import { recordEvent } from '../../src/events/recordEvent';
import type {
  FollowUpCall,
  FollowUpOutcome,
  ProcessorFollowUp,
  SettlementInput,
} from '../../src/payments/followUpTypes';
import { processorAccess } from '../../src/payments/processorAccess';
import { rejection } from '../../src/payments/workflowTypes';
import { ProcessorTechnicalError, type FollowUpResult } from '../../src/processors/types';
import type { ActivityDeps } from '../deps';

type Tx = Prisma.TransactionClient;

/** Calls capture / void / refund at the payment's processor; technical failures are thrown (retried). */
export async function callProcessor(
  deps: ActivityDeps,
  scope: { accountId: string; mode: 'test' | 'live' },
  action: 'capture' | 'void' | 'refund',
  call: FollowUpCall,
): Promise<ProcessorFollowUp> {
  let result: FollowUpResult;
  try {
    const access = await processorAccess(deps, scope, call.processorId);
    result = await access.adapter[action]({
      idempotencyKey: call.idempotencyKey,
      processorReference: call.processorReference,
      amount: call.amount,
      currency: call.currency,
      credentials: access.credentials,
    });
  } catch (error) {
    if (error instanceof ProcessorTechnicalError)
      throw ApplicationFailure.retryable(error.message, 'ProcessorTechnicalError', { code: error.code });
    throw error;
  }
  if (result.outcome === 'failed') return { outcome: 'failed', code: result.code, message: result.message };
  if (result.outcome === 'pending') return { outcome: 'pending', processorReference: result.processorReference };
  return {
    outcome: 'succeeded',
    processorReference: result.processorReference,
    dispute: result.disputeOpened ? { amount: result.disputeOpened.amount, reason: result.disputeOpened.reason } : null,
  };
}

export async function recordEvents(
  tx: Tx,
  payment: { accountId: string; mode: 'test' | 'live'; storeId: string; customerId: string | null },
  events: [string, Record<string, unknown>][],
) {
  const ids: string[] = [];
  for (const [eventType, properties] of events) {
    ids.push(
      (
        await recordEvent(tx, {
          accountId: payment.accountId,
          mode: payment.mode,
          storeId: payment.storeId,
          customerId: payment.customerId,
          eventType,
          properties,
        })
      ).id,
    );
  }
  return ids;
}

/**
 * Capture and void of an authorization. `beginSettlement` claims the payment with a conditional
 * UPDATE (authorized → processing, the operation noted in metadata), so a capture and a void, or
 * two captures, can never both reach the processor; `finishSettlement` moves it on or back.
 */
export function createPaymentSettlementActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    async beginSettlement(
      input: SettlementInput & { workflowId: string },
    ): Promise<FollowUpCall | Extract<FollowUpOutcome, { kind: 'rejected' }>> {
      const payment = await db.payment.findFirst({
        where: { id: input.paymentId, accountId: input.accountId, mode: input.mode },
      });
      if (!payment) return rejection('not_found', 'NOT_FOUND', 'Payment not found');
      const amount = input.operation === 'capture' ? (input.amount ?? payment.amount) : payment.amount;
      if (amount > payment.amount)
        return rejection('invalid', 'AMOUNT_EXCEEDS_AUTHORIZATION', `At most ${payment.amount} can be captured`);
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
    },

    async settleAtProcessor(input: SettlementInput & { call: FollowUpCall }): Promise<ProcessorFollowUp> {
      return callProcessor(deps, { accountId: input.accountId, mode: input.mode }, input.operation, input.call);
    },

    async finishSettlement(
      input: SettlementInput & { workflowId: string; call: FollowUpCall; result: ProcessorFollowUp },
    ): Promise<FollowUpOutcome> {
      return db.$transaction(async (tx) => {
        const payment = await tx.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
        const metadata = { ...((payment.metadata as Record<string, unknown> | null) ?? {}) };
        const done = (eventIds: string[], succeeded: boolean, status: string) => ({
          kind: 'done' as const,
          paymentId: payment.id,
          paymentStatus: status,
          succeeded,
          code: input.result.outcome === 'failed' ? input.result.code : null,
          message: input.result.outcome === 'failed' ? input.result.message : null,
          eventIds,
        });
        if (payment.status !== 'processing' || metadata.settlement !== input.workflowId)
          return done([], input.result.outcome === 'succeeded', payment.status);
        if (input.result.outcome === 'pending') {
          // The claim stays (processing, metadata.settlement) until the processor confirms by webhook,
          // so no other capture or void can start meanwhile; nothing is recorded as done.
          const pendingAtProcessor = {
            operation: input.operation,
            processorReference: input.result.processorReference,
            amount: input.call.amount,
          };
          await tx.payment.update({
            where: { id: payment.id },
            data: { metadata: { ...metadata, pendingAtProcessor } as Prisma.InputJsonObject },
          });
          return { ...done([], true, payment.status), pending: true };
        }
        delete metadata.settlement;
        if (input.result.outcome === 'failed') {
          await tx.payment.update({
            where: { id: payment.id },
            data: { status: 'authorized', metadata: metadata as Prisma.InputJsonObject },
          });
          return done([], false, 'authorized');
        }
        const now = new Date();
        const capture = input.operation === 'capture';
        const status = capture ? 'succeeded' : 'canceled';
        await tx.payment.update({
          where: { id: payment.id },
          data: {
            status,
            metadata: metadata as Prisma.InputJsonObject,
            ...(capture ? { amountCaptured: input.call.amount, capturedAt: now } : { canceledAt: now }),
          },
        });
        const base = {
          paymentId: payment.id,
          orderId: payment.orderId,
          amount: input.call.amount,
          currency: payment.currency,
          processorId: payment.processorId,
        };
        const events: [string, Record<string, unknown>][] = [
          [capture ? 's_payment_succeeded' : 's_payment_voided', { ...base, status, captured: capture }],
        ];
        if (capture && input.result.dispute) {
          const dispute = await tx.dispute.create({
            data: {
              id: newId('dispute'),
              paymentId: payment.id,
              amount: input.result.dispute.amount,
              currency: payment.currency,
              status: 'needs_response',
              reason: input.result.dispute.reason,
            },
          });
          events.push([
            's_payment_disputed',
            {
              paymentId: payment.id,
              disputeId: dispute.id,
              amount: dispute.amount,
              currency: dispute.currency,
              reason: dispute.reason,
              status: dispute.status,
            },
          ]);
        }
        return done(await recordEvents(tx, payment, events), true, status);
      });
    },
  };
}
