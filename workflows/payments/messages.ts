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

/**
 * Sent by the step-up return route when the shopper's browser comes back from the processor's
 * authentication page: the workflow asks the processor for the result and answers whether the
 * attempt has settled (the payment's own outcome follows from `awaitOutcome`).
 */
export const stepUpReturnedUpdate = defineUpdate<
  { settled: boolean },
  [{ attemptNumber: number; returnData?: Record<string, string> }]
>('stepUpReturned');

/** Sent by the processor-webhook route when the processor reports the authorization's outcome. */
export const stepUpNotifiedSignal = defineSignal<[{ attemptNumber: number }]>('stepUpNotified');
