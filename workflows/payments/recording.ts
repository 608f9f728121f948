import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { dispatch, paymentLocalStep } from '../shared/activityOptions';
import { declineCategoryOf } from '../../src/processors/declineCodes';
import {
  blockedByRuleCode,
  outcomeUnknownCode,
  type FinalizeInput,
  type PaymentOutcome,
  type PaymentWorkflowInput,
} from '../../src/payments/workflowTypes';
import type { AttemptsResult } from './attempts';
import { paymentOutcome, type PaymentProgress } from './progress';

const { finalizePayment } = proxyLocalActivities<Activities>(paymentLocalStep);
const { dispatchEvents } = proxyActivities<Activities>(dispatch);

export type PaymentFinal = Omit<FinalizeInput, 'paymentId' | 'dispatchAfterCommit'>;

/**
 * The payment's last step: records payment, order and events in one transaction (whose step then
 * dispatches the events) and answers the API.
 */
export async function recordPayment(
  progress: PaymentProgress,
  input: PaymentWorkflowInput,
  final: PaymentFinal,
): Promise<PaymentOutcome> {
  progress.state.step = 'recording';
  // The finalize step of the runs the API starts dispatches after its commit: the run answers and
  // completes in one workflow task, without a dispatch activity and the task that takes its result.
  const dispatchAfterCommit = input.dispatchAtFinalize === true;
  const recorded = await finalizePayment({
    paymentId: input.paymentId,
    ...final,
    ...(dispatchAfterCommit ? { dispatchAfterCommit } : {}),
  });
  // A payment closed before (this run's first workflow task done again) answers what was recorded.
  const { status, declineCode, declineMessage } = recorded.recorded ?? final;
  progress.answer(
    { ...paymentOutcome(input, status), declineCode, declineMessage, order: recorded.order },
    final.review ? 'needs_review' : status,
  );
  if (!dispatchAfterCommit && recorded.eventIds.length > 0) await dispatchEvents(recorded.eventIds);
  return progress.ended();
}

export function failedPayment(
  code: string,
  message: string,
  processorId: string | null = null,
  review: FinalizeInput['review'] = null,
): PaymentFinal {
  return {
    status: 'failed',
    processorId,
    processorReference: null,
    captured: false,
    declineCode: code,
    declineCategory: declineCategoryOf(code),
    declineMessage: message,
    review,
  };
}

/**
 * Nothing to charge (a discount took the whole total): no 3DS, no processor; the same recording
 * step pays the session, writes its order and events, exactly once under the session's claim.
 */
export const freePayment: PaymentFinal = {
  status: 'succeeded',
  processorId: null,
  processorReference: null,
  captured: true,
  declineCode: null,
  declineCategory: null,
  declineMessage: null,
};

export function blockedPayment(rule: { ruleId: string; ruleName: string }): PaymentFinal {
  return {
    status: 'failed',
    processorId: null,
    processorReference: null,
    captured: false,
    declineCode: blockedByRuleCode,
    declineCategory: declineCategoryOf(blockedByRuleCode),
    declineMessage: `Blocked by rule ${rule.ruleName}`,
    blockedByRuleId: rule.ruleId,
  };
}

/** What the attempts came to: approved, unresolved (a charge may stand: review), or the last decline. */
export function finalOfAttempts(input: PaymentWorkflowInput, attempts: AttemptsResult): PaymentFinal {
  const approved = attempts.approved;
  if (approved)
    return {
      status: input.intent === 'auth' ? 'authorized' : 'succeeded',
      processorId: approved.processorId,
      processorReference: approved.processorReference,
      captured: approved.captured,
      declineCode: null,
      declineCategory: null,
      declineMessage: null,
      dispute: approved.dispute,
    };
  const last = attempts.lastFailure!;
  if (attempts.unresolved) {
    const { processorId, attemptNumber } = attempts.unresolved;
    const review = { reason: 'reversal_unconfirmed' as const, processorId, attemptNumber };
    return failedPayment(
      outcomeUnknownCode,
      'The processor never answered and its reversal was not confirmed; the payment needs review',
      processorId,
      review,
    );
  }
  const code = last.outcome === 'requires_3ds' ? 'authentication_required' : (last.errorCode ?? 'processor_error');
  return failedPayment(code, last.message ?? 'The payment was declined', last.processorId);
}
