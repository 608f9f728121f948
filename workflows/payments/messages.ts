import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { FollowUpOutcome, ProcessorFollowUp } from '../../src/payments/followUpTypes';
import type { PaymentOutcome, PaymentStateView } from '../../src/payments/workflowTypes';

/**
 * Messages of the payment workflow. The API sends `awaitOutcome` with update-with-start: it
 * answers once the payment is terminal or needs the customer (`requires_action`), or with
 * `processing` when `waitMs` passes first.
 */
export const awaitOutcomeUpdate = defineUpdate<PaymentOutcome, [{ waitMs: number }]>('awaitOutcome');

/** Live state for operators and tests: current step and the attempts so far. */
export const paymentStateQuery = defineQuery<PaymentStateView>('paymentState');

/**
 * Messages of the capture/void and refund workflows. `followUpOutcome` (sent with
 * update-with-start by the API) answers as soon as the first outcome is known: the processor's
 * answer, `pending` included, so the caller never waits for a confirmation that may take days.
 * `processorConfirmation` is sent by the processor-webhook route once it has recorded the final
 * state: the waiting workflow stops waiting and ends with that outcome.
 */
export const followUpOutcomeUpdate = defineUpdate<FollowUpOutcome>('followUpOutcome');
export const processorConfirmationSignal = defineSignal<[ProcessorFollowUp]>('processorConfirmation');
