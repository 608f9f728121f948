import { ApplicationFailure } from '@temporalio/activity';
import { claimPaymentForSettlement, settleClaimedPaymentNow } from '../../src/payments/settlementOutcomes';
import type {
  FollowUpCall,
  FollowUpOutcome,
  ProcessorFollowUp,
  SettlementInput,
} from '../../src/payments/followUpTypes';
import { processorAccess } from '../../src/payments/processorAccess';
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
      return claimPaymentForSettlement(db, input);
    },

    async settleAtProcessor(input: SettlementInput & { call: FollowUpCall }): Promise<ProcessorFollowUp> {
      return callProcessor(deps, { accountId: input.accountId, mode: input.mode }, input.operation, input.call);
    },

    async finishSettlement(
      input: SettlementInput & { workflowId: string; call: FollowUpCall; result: ProcessorFollowUp },
    ): Promise<FollowUpOutcome> {
      const { result } = input;
      const settled = await settleClaimedPaymentNow(
        db,
        { paymentId: input.paymentId, owner: input.workflowId, operation: input.operation, amount: input.call.amount },
        result,
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
