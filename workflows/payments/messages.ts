import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { PaymentOutcome, PaymentStateView } from '../../src/payments/workflowTypes';

/**
 * Messages of the payment workflow. The API sends `awaitOutcome` with update-with-start: it
 * answers once the payment is terminal or needs the customer (`requires_action`), or with
 * `processing` when `waitMs` passes first.
 */
export const awaitOutcomeUpdate = defineUpdate<PaymentOutcome, [{ waitMs: number }]>('awaitOutcome');

/** Live state for operators and tests: current step and the attempts so far. */
export const paymentStateQuery = defineQuery<PaymentStateView>('paymentState');
