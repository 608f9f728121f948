import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Db, Prisma } from '../db/prisma';
import { searchAttributesFor } from '../../temporal/searchAttributes';
import { webhookTypeOf } from '../webhooks/catalogue';
import {
  emailKindOfEvent,
  eventEmailWorkflowId,
  type EventEmailInput,
  type EventEmailKind,
} from '../email/eventEmails';
import { sendEventEmailMarkLater, type SendEventEmailDeps, type SentMark } from '../email/sendEventEmail';
import { markDispatched, markProcessed } from './markDispatched';
import { recordEvents, type RecordEventInput } from './recordEvent';

export interface DispatchDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  /**
   * Given in the worker's dispatch activities: an event's customer e-mail is sent right here, and
   * only one whose send fails gets an e-mail workflow of its own (durable retries, visible failure).
   * A receipt is then no second workflow per payment.
   */
  emailNow?: SendEventEmailDeps;
}

/** Input of `webhookDeliveryWorkflow` (workflows/webhooks/delivery.ts). */
export interface WebhookDeliveryInput {
  eventId: string;
  endpointId: string;
}

/** One delivery workflow per (event, endpoint): the id makes any re-dispatch a no-op. */
export function deliveryWorkflowId(eventId: string, endpointId: string): string {
  return `whd_${eventId}_${endpointId}`;
}

/** Where an event's workflow belongs: searchable by its account, store and event. */
interface EventWorkflowTarget {
  eventId: string;
  accountId: string;
  storeId: string | null;
}

/** Starts one workflow of an event; false when its id is taken (the reuse policy says which runs take it). */
async function startEventWorkflow(
  deps: DispatchDeps,
  workflowType: string,
  target: EventWorkflowTarget,
  start: { workflowId: string; args: [unknown]; workflowIdReusePolicy: WorkflowIdReusePolicy },
): Promise<boolean> {
  try {
    await deps.temporal.workflow.start(workflowType, {
      ...start,
      taskQueue: deps.taskQueue,
      typedSearchAttributes: searchAttributesFor({
        accountId: target.accountId,
        storeId: target.storeId,
        eventId: target.eventId,
      }),
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

/** Starts a delivery workflow; false when one with this id already ran or runs. */
export function startDeliveryWorkflow(
  deps: DispatchDeps,
  target: EventWorkflowTarget & { endpointId: string },
  workflowId = deliveryWorkflowId(target.eventId, target.endpointId),
): Promise<boolean> {
  return startEventWorkflow(deps, 'webhookDeliveryWorkflow', target, {
    workflowId,
    args: [{ eventId: target.eventId, endpointId: target.endpointId } satisfies WebhookDeliveryInput],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
  });
}

/**
 * Starts the e-mail workflow of an event; false when it runs or completed. A failed one (live mode
 * without SMTP, a mail server down for a day) may be started again by a later dispatch: the
 * sent_emails claim still keeps the e-mail to one.
 */
export function startEventEmailWorkflow(
  deps: DispatchDeps,
  target: EventWorkflowTarget & { kind: EventEmailKind },
): Promise<boolean> {
  return startEventWorkflow(deps, 'eventEmailWorkflow', target, {
    workflowId: eventEmailWorkflowId(target.eventId, target.kind),
    args: [{ eventId: target.eventId, kind: target.kind }],
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
  });
}

/**
 * Fans committed events out to every enabled endpoint subscribed to their webhook type (the
 * event's store's endpoints; an event without a store goes to every endpoint of its account and
 * mode) and to the customer e-mail they send (receipts, src/email/eventEmails.ts: sent now when
 * `deps.emailNow` is given, else by a workflow of its own), then marks them processed. Safe to
 * repeat: workflow ids are deterministic and the sent_emails claim sends an e-mail once. Reads the
 * events and the candidate endpoints in one query each, whatever the batch size.
 */
export async function dispatchEventsNow(
  deps: DispatchDeps,
  eventIds: string[],
): Promise<{ started: number; workflowIds: string[] }> {
  const { events, subscribers } = await subscribersOf(deps.db, eventIds);
  return fanOut(deps, events, subscribers);
}

/** An event as its writer just recorded it, with the enabled endpoints subscribed to it then. */
export interface RecordedEvent {
  id: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string | null;
  customerId: string | null;
  eventType: string;
  properties: unknown;
  endpointIds: string[];
}

/**
 * `dispatchEventsNow` for events whose writer knows them and their subscribers (the paid
 * checkout's one statement): the same fan-out without reading them back.
 */
export function dispatchRecordedEvents(
  deps: DispatchDeps,
  recorded: RecordedEvent[],
): Promise<{ started: number; workflowIds: string[] }> {
  const events = recorded.map((event) => ({ ...event, draft: false }));
  return fanOut(deps, events, new Map(recorded.map((event) => [event.id, event.endpointIds])));
}

async function fanOut(
  deps: DispatchDeps,
  events: (EventScope & { id: string; storeId: string | null; draft: boolean })[],
  subscribers: Map<string, string[]>,
): Promise<{ started: number; workflowIds: string[] }> {
  const workflowIds: string[] = [];
  for (const event of events) {
    for (const endpointId of subscribers.get(event.id) ?? []) {
      const target = { eventId: event.id, endpointId, accountId: event.accountId, storeId: event.storeId };
      if (await startDeliveryWorkflow(deps, target)) workflowIds.push(deliveryWorkflowId(event.id, endpointId));
    }
  }
  // E-mails after all deliveries: a mail sent here waits for its sent mark (written below with the
  // events' processed mark) as briefly as it can, since a crash in between could send it twice.
  const sentMarks: SentMark[] = [];
  for (const event of events) {
    const kind = event.draft ? null : emailKindOfEvent(event);
    if (kind && !(deps.emailNow && (await sentNow(deps.emailNow, { eventId: event.id, kind }, sentMarks)))) {
      const target = { eventId: event.id, kind, accountId: event.accountId, storeId: event.storeId };
      if (await startEventEmailWorkflow(deps, target)) workflowIds.push(eventEmailWorkflowId(event.id, kind));
    }
  }
  await markDispatched(
    deps.db,
    sentMarks,
    events.map((event) => event.id),
  );
  return { started: workflowIds.length, workflowIds };
}

/**
 * Sends an event's e-mail at once, its sent mark added to `sentMarks` for the caller to write;
 * false (logged) when that failed and a workflow has to take it over.
 */
async function sentNow(deps: SendEventEmailDeps, input: EventEmailInput, sentMarks: SentMark[]): Promise<boolean> {
  try {
    const { sentMark } = await sendEventEmailMarkLater(deps, input);
    if (sentMark) sentMarks.push(sentMark);
    return true;
  } catch (error) {
    deps.logger.warn({ err: error, ...input }, 'event e-mail not sent at dispatch; its workflow retries it');
    return false;
  }
}

/**
 * In the transaction that recorded `eventIds`: marks those no endpoint subscribes to and that send
 * no e-mail as processed (they have nothing to deliver) and returns the others, which still need
 * `dispatchEventsNow` after commit. Saves a workflow step per payment for merchants without webhooks.
 */
export async function keepEventsWithSubscribers(tx: Prisma.TransactionClient, eventIds: string[]): Promise<string[]> {
  const { events, subscribers } = await subscribersOf(tx, eventIds);
  const silent = events
    .filter((event) => (subscribers.get(event.id) ?? []).length === 0 && !sendsEmail(event))
    .map((event) => event.id);
  await markProcessed(tx, silent);
  const kept = new Set(eventIds);
  for (const id of silent) kept.delete(id);
  return [...kept];
}

/** The events (oldest first) and, per event id, the ids of the enabled endpoints subscribed to it. */
async function subscribersOf(db: Db | Prisma.TransactionClient, eventIds: string[]) {
  const events = await db.event.findMany({
    where: { id: { in: [...new Set(eventIds)] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const deliverable = events.filter((event) => !event.draft);
  const endpoints = await candidateEndpoints(db, deliverable);
  const subscribers = new Map<string, string[]>();
  for (const event of deliverable) {
    if (webhookTypeOf(event.eventType) !== undefined)
      subscribers.set(event.id, subscribedEndpointIds(event, endpoints));
  }
  return { events, subscribers };
}

/**
 * Records events in one INSERT, after one query for what they have to dispatch: those with nothing
 * are written processed already. Answers the ids that still need dispatching, in order.
 */
export async function recordSubscribedEvents(
  tx: Prisma.TransactionClient,
  inputs: (RecordEventInput & { storeId: string | null })[],
): Promise<string[]> {
  const subscribed = await subscribedAmong(tx, inputs);
  const ids = await recordEvents(
    tx,
    inputs.map((input, index) => ({ ...input, processed: !subscribed[index] })),
  );
  return ids.filter((_, index) => subscribed[index]);
}

/**
 * For events about to be recorded in the caller's transaction: whether each has something to
 * dispatch, an enabled endpoint subscribed to it or a customer e-mail to send (one query, none
 * when no event has a webhook type). The recorder writes the others already processed, so they
 * need neither a re-read nor an update.
 */
export async function subscribedAmong(tx: Prisma.TransactionClient, events: EventScope[]): Promise<boolean[]> {
  const endpoints = await candidateEndpoints(tx, events);
  return events.map(
    (event) =>
      sendsEmail(event) ||
      (webhookTypeOf(event.eventType) !== undefined && subscribedEndpointIds(event, endpoints).length > 0),
  );
}

interface EventScope {
  accountId: string;
  mode: 'test' | 'live';
  storeId: string | null;
  eventType: string;
  properties?: unknown;
}

function sendsEmail(event: EventScope & { draft?: boolean }): boolean {
  return !event.draft && emailKindOfEvent(event) !== null;
}

async function candidateEndpoints(db: Db | Prisma.TransactionClient, events: EventScope[]) {
  const deliverable = events.filter((event) => webhookTypeOf(event.eventType) !== undefined);
  if (deliverable.length === 0) return [];
  return db.webhookEndpoint.findMany({
    where: { enabled: true, OR: distinctScopes(deliverable).map(({ accountId, mode }) => ({ accountId, mode })) },
    select: { id: true, accountId: true, mode: true, storeId: true, eventTypes: true },
  });
}

function subscribedEndpointIds(event: EventScope, endpoints: Awaited<ReturnType<typeof candidateEndpoints>>): string[] {
  const webhookType = webhookTypeOf(event.eventType)!;
  return endpoints
    .filter(
      (endpoint) =>
        endpoint.accountId === event.accountId &&
        endpoint.mode === event.mode &&
        endpoint.eventTypes.includes(webhookType) &&
        (event.storeId === null || endpoint.storeId === event.storeId),
    )
    .map((endpoint) => endpoint.id);
}

function distinctScopes<Scope extends { accountId: string; mode: string }>(
  events: Scope[],
): Pick<Scope, 'accountId' | 'mode'>[] {
  const seen = new Map<string, Pick<Scope, 'accountId' | 'mode'>>();
  for (const { accountId, mode } of events) seen.set(`${accountId}:${mode}`, { accountId, mode });
  return [...seen.values()];
}
