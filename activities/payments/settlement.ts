import { ApplicationFailure } from '@temporalio/activity';
import { settlementAmount } from '../../src/domain/paymentAmounts';
import { settleClaimedPayment } from '../../src/payments/settlementOutcomes';
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
    },

    async settleAtProcessor(input: SettlementInput & { call: FollowUpCall }): Promise<ProcessorFollowUp> {
      return callProcessor(deps, { accountId: input.accountId, mode: input.mode }, input.operation, input.call);
    },

    async finishSettlement(
      input: SettlementInput & { workflowId: string; call: FollowUpCall; result: ProcessorFollowUp },
    ): Promise<FollowUpOutcome> {
      const { result } = input;
      const settled = await db.$transaction((tx) =>
        settleClaimedPayment(
          tx,
          {
            paymentId: input.paymentId,
            owner: input.workflowId,
            operation: input.operation,
            amount: input.call.amount,
          },
          result,
        ),
      );
      const failure = result.outcome === 'failed' ? result : null;
      // Settled elsewhere first (the processor's webhook): the payment's status tells how it ended.
      const succeeded = settled.effect === 'already_settled' ? !failure && settled.status !== 'authorized' : !failure;
      return {
        kind: 'done',
        paymentId: input.paymentId,
        paymentStatus: settled.status,
        succeeded,
        ...(settled.effect === 'pending' ? { pending: true } : {}),
        code: failure?.code ?? (succeeded ? null : 'processor_declined'),
        message: failure?.message ?? (succeeded ? null : 'The processor failed the operation'),
        eventIds: settled.eventIds,
      };
    },
  };
}
