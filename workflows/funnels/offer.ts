import { ChildWorkflowFailure, executeChild, proxyActivities } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../../activities';
import { paymentWait, recordStep } from '../shared/activityOptions';
import type { FunnelCheckout, FunnelSessionInput, OfferAnswerView } from '../../src/funnels/sessionTypes';
import type { PaymentOutcome, PaymentWorkflowInput } from '../../src/payments/workflowTypes';
import { childPaymentOptions } from '../payments/child';
import type { paymentWorkflow } from '../payments/payment';

const { prepareUpsell, recordOfferAnswer } = proxyActivities<Activities>(recordStep);
const { awaitUpsellPayment } = proxyActivities<Activities>(paymentWait);

/**
 * An accepted offer: its order (pending) and answer row are written once under the unique
 * (session, step), then the card of the checkout is charged as a child payment workflow whose id
 * comes from (session, step): merchant-initiated on the card on file (no second challenge), pinned
 * to the processor that took the checkout, `source: upsell`. A decline is a result.
 */
export async function chargeOffer(
  input: FunnelSessionInput,
  checkout: FunnelCheckout,
  step: { id: string; priceId: string },
): Promise<OfferAnswerView> {
  const prepared = await prepareUpsell({
    sessionId: input.sessionId,
    stepId: step.id,
    priceId: step.priceId,
    accountId: input.accountId,
    mode: input.mode,
    storeId: input.storeId,
    checkout,
  });
  if (prepared.kind === 'done') return prepared.answer;
  const outcome = await runChildPayment(prepared.payment);
  const paid = outcome.kind === 'payment' && (outcome.status === 'succeeded' || outcome.status === 'authorized');
  return recordOfferAnswer({
    sessionId: input.sessionId,
    stepId: step.id,
    status: paid ? 'succeeded' : 'failed',
    declineCode: outcome.kind === 'payment' ? outcome.declineCode : outcome.error.code,
  });
}

async function runChildPayment(payment: PaymentWorkflowInput): Promise<PaymentOutcome> {
  try {
    return await executeChild<typeof paymentWorkflow>('paymentWorkflow', childPaymentOptions(payment));
  } catch (error) {
    // Started before (an earlier run of this session's code) or ended without an answer: its row says.
    if (error instanceof WorkflowExecutionAlreadyStartedError || error instanceof ChildWorkflowFailure)
      return awaitUpsellPayment({ paymentId: payment.paymentId });
    throw error;
  }
}
