import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { processorConfirmationSignal } from '../../workflows/payments/messages';
import { stepUpNotifiedSignal } from '../../workflows/payments/messages';
import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import { DomainError, conflict, invalid, notFound } from '../errors';
import { dispatchEventsNow } from '../events/dispatch';
import type { Logger } from '../logging/logger';
import { openProcessorCredentials } from '../processors/credentials';
import { isProcessorType, processorDefinition } from '../processors/registry';
import type { ProcessorEvent } from '../processors/types';
import { applyProcessorEvent, type AppliedEvent } from './processorEventEffects';

/**
 * `POST /processor-webhooks/{processorId}`: a processor's asynchronous outcomes (docs/processors.md,
 * "Processor webhooks"). The processor's type verifies the vendor's signature over the raw body
 * with the processor's own secret and parses the events. Each event is recorded under the unique
 * (processor id, vendor event id) and applied in the same transaction: a redelivered or
 * concurrently delivered event finds its row and changes nothing. The database is settled first;
 * then the workflow that may be waiting for the outcome is signalled (it ends with the settled
 * state; a workflow that has ended is not needed), and the recorded merchant events are dispatched
 * (the outbox sweep delivers them if this fails).
 */
export interface ProcessorWebhookDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  config: Config;
  logger: Logger;
}

export interface ReceivedWebhook {
  rawBody: Buffer;
  headers: Record<string, string | undefined>;
}

export interface WebhookReceipt {
  received: number;
  applied: number;
  duplicates: number;
  /** Fields the vendor expects in the answer (Adyen's `notificationResponse`). */
  acknowledgement: Record<string, string>;
}

export async function receiveProcessorWebhook(
  deps: ProcessorWebhookDeps,
  processorId: string,
  delivery: ReceivedWebhook,
): Promise<WebhookReceipt> {
  const processor = await deps.db.processor.findUnique({ where: { id: processorId } });
  if (!processor) throw notFound('Processor');
  const webhooks = isProcessorType(processor.type) ? processorDefinition(processor.type).webhooks : undefined;
  if (!webhooks) throw invalid(`Processors of type ${processor.type} send no webhooks`, 'WEBHOOKS_NOT_SUPPORTED');
  const verified = webhooks.verify({
    ...delivery,
    credentials: openProcessorCredentials(processor.encryptedCredentials, processor.id, deps.config),
    live: processor.mode === 'live',
  });
  if (!verified.ok) {
    if (verified.reason === 'no_secret')
      throw conflict(
        `The processor has no webhook signing secret (${verified.message}): add it to its credentials`,
        'WEBHOOK_SECRET_MISSING',
      );
    if (verified.reason === 'malformed')
      throw invalid(`Not a webhook of this processor: ${verified.message}`, 'INVALID_WEBHOOK');
    throw new DomainError('unauthenticated', 'INVALID_SIGNATURE', `Webhook signature refused: ${verified.message}`);
  }
  const effects: AppliedEvent[] = [];
  try {
    for (const event of verified.events) {
      const effect = await recordOnce(deps.db, processor.id, event);
      if (effect) effects.push(effect);
    }
  } finally {
    // What committed is announced even when a later event of the batch was refused.
    await announce(deps, effects);
  }
  const applied = effects.length;
  return {
    received: verified.events.length,
    applied,
    duplicates: verified.events.length - applied,
    acknowledgement: webhooks.acknowledgement ?? {},
  };
}

async function announce(deps: ProcessorWebhookDeps, effects: AppliedEvent[]): Promise<void> {
  for (const effect of effects) {
    if (effect.wake) await wake(deps, effect.wake);
    if (effect.nudge) await nudge(deps, effect.nudge);
  }
  const eventIds = effects.flatMap((effect) => effect.eventIds);
  if (eventIds.length > 0)
    await dispatchEventsNow(deps, eventIds).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'event dispatch deferred to the outbox sweep'),
    );
}

/** The event's row and its effect in one transaction; null when the row exists (a redelivery). */
async function recordOnce(db: Db, processorId: string, event: ProcessorEvent): Promise<AppliedEvent | null> {
  return db.$transaction(async (tx) => {
    const id = newId('processorWebhookEvent');
    // A concurrent delivery of the same event waits here for the first one's commit, then inserts nothing.
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "processor_webhook_events" ("id", "processor_id", "vendor_event_id", "vendor_type", "kind", "effect")
      VALUES (${id}, ${processorId}, ${event.vendorEventId}, ${event.vendorType}, ${event.kind}, 'received')
      ON CONFLICT ("processor_id", "vendor_event_id") DO NOTHING
      RETURNING "id"`;
    if (inserted.length === 0) return null;
    const effect = await applyProcessorEvent(tx, processorId, event);
    await tx.processorWebhookEvent.update({
      where: { id },
      data: { effect: effect.effect, paymentId: effect.paymentId ?? null, refundId: effect.refundId ?? null },
    });
    return effect;
  });
}

/** Tells a payment waiting for the shopper's authentication that the processor has an outcome. */
async function nudge(deps: ProcessorWebhookDeps, target: NonNullable<AppliedEvent['nudge']>): Promise<void> {
  try {
    await deps.temporal.workflow
      .getHandle(target.workflowId)
      .signal(stepUpNotifiedSignal, { attemptNumber: target.attemptNumber });
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    // The shopper's return or the timeout still ends the wait.
    deps.logger.warn({ err: error, workflowId: target.workflowId }, 'step-up notice not signalled');
  }
}

/** Tells a waiting workflow its outcome is recorded. A run that ended (or never waited) needs nothing. */
async function wake(deps: ProcessorWebhookDeps, target: NonNullable<AppliedEvent['wake']>): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(target.workflowId).signal(processorConfirmationSignal, target.confirmation);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    // The rows are settled; the workflow finds that out itself when its wait ends.
    deps.logger.warn({ err: error, workflowId: target.workflowId }, 'processor confirmation not signalled');
  }
}
