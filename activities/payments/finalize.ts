import { recordPaymentEnd } from '../../src/payments/finalize';
import type { FinalizeInput, FinalizeResult } from '../../src/payments/workflowTypes';
import { processorTypeOf } from '../../src/processors/service';
import { paymentDuration, paymentsFinished } from '../../src/metrics/metrics';
import { dispatchEventsNow, dispatchRecordedEvents, type RecordedEvent } from '../../src/events/dispatch';
import type { ActivityDeps } from '../deps';
import { emailNowOf } from '../events/mailer';

export function createPaymentFinalizeActivities(deps: ActivityDeps) {
  const { db } = deps;
  /**
   * Processor id → type, for the metric's label only, kept a minute: a processor whose type is
   * changed (rare) shows its new type in the label within that minute.
   */
  const processorTypes = new Map<string, { type: string; at: number }>();
  async function cachedProcessorType(processorId: string): Promise<string> {
    const known = processorTypes.get(processorId);
    if (known && Date.now() - known.at < 60_000) return known.type;
    const type = await processorTypeOf(db, processorId);
    if (processorTypes.size >= 1_000) processorTypes.clear();
    if (type) processorTypes.set(processorId, { type, at: Date.now() });
    return type ?? 'none';
  }

  return {
    /**
     * Records the payment's end (src/payments/finalize.ts: the one statement of an approved
     * checkout payment, else one transaction) and answers the ids of the events that still need
     * dispatching. A repeat after commit writes nothing twice and is not counted again.
     */
    async finalizePayment(input: FinalizeInput): Promise<FinalizeResult> {
      const { closed, recordedEvents, ...result } = await recordPaymentEnd(db, deps.logger, input);
      if (closed) await countFinishedPayment(input, closed.paymentCreatedAt);
      if (input.dispatchAfterCommit && result.eventIds.length > 0) dispatchAfterAnswer(result.eventIds, recordedEvents);
      return result;
    },
  };

  /**
   * The payment's events go out (webhook deliveries started, receipt sent) once its answer is on
   * its way (PAYMENT_DISPATCH_DELAY_MS after the commit): not awaited, so the workflow answers and
   * completes in the task that finalized it. A
   * failure leaves the events unprocessed for the outbox sweep; a repeat dispatches nothing twice.
   */
  function dispatchAfterAnswer(eventIds: string[], recordedEvents: RecordedEvent[] | undefined) {
    if (!deps.temporal) return;
    const dispatchDeps = {
      db,
      temporal: deps.temporal,
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      emailNow: emailNowOf(deps),
    };
    // The one-statement writer hands over the events and their subscribers: nothing is read back.
    const dispatch = recordedEvents
      ? () => dispatchRecordedEvents(dispatchDeps, recordedEvents)
      : () => dispatchEventsNow(dispatchDeps, eventIds);
    const work = () =>
      dispatch().then(
        () => undefined,
        (error: unknown) =>
          deps.logger.warn({ err: error, eventIds }, 'payment event dispatch failed; the outbox sweep will deliver'),
      );
    // Deferred a few ms: the answer and the dispatch both need this thread, and the answer goes first.
    const delayMs = deps.config.PAYMENT_DISPATCH_DELAY_MS;
    if (deps.pendingWork) deps.pendingWork.startAfter(delayMs, work);
    else setTimeout(() => void work(), delayMs);
  }

  /** Counted by the call that closed the payment; a failure to count never fails the payment. */
  async function countFinishedPayment(input: FinalizeInput, createdAt: Date) {
    try {
      const processor = input.processorId ? await cachedProcessorType(input.processorId) : 'none';
      const status = input.review ? 'needs_review' : input.status;
      paymentsFinished.inc({ status, decline_code: input.declineCode ?? '', processor });
      paymentDuration.observe({ status }, (Date.now() - createdAt.getTime()) / 1000);
    } catch (error) {
      deps.logger.warn({ err: error, paymentId: input.paymentId }, 'payment metrics not counted');
    }
  }
}
