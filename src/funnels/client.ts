import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { searchAttributesFor, startAndAwait } from '../../temporal/client';
import {
  answerOfferUpdate,
  checkoutPaidUpdate,
  funnelSessionQuery,
  sessionOpenedUpdate,
  trackStepUpdate,
} from '../../workflows/funnels/messages';
import type { Scope } from '../commerce/scope';
import type { Db } from '../db/prisma';
import { conflict, DomainError, unavailable, type DomainErrorKind } from '../errors';
import { findFunnelSessionRow } from './sessions';
import type { FunnelSessionInput, FunnelSessionView, FunnelTrackingEvent, OfferAnswerView } from './sessionTypes';
import { answerView, upsellPaymentId } from './upsells';

export interface FunnelClientDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  /** How long the caller waits for an answer of the session (PAYMENT_RESPONSE_TIMEOUT_MS: an accept charges). */
  responseTimeoutMs: number;
}

/** The client's dependencies from the engine's: both funnel route groups use the same. */
export function funnelClientDeps(deps: {
  db: Db;
  temporal: Client;
  taskQueue: string;
  config: { PAYMENT_RESPONSE_TIMEOUT_MS: number };
}): FunnelClientDeps {
  return {
    db: deps.db,
    temporal: deps.temporal,
    taskQueue: deps.taskQueue,
    responseTimeoutMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
  };
}

/** Starts a session's workflow (update-with-start) and answers once its row is written. */
export async function startFunnelSession(
  deps: FunnelClientDeps,
  input: FunnelSessionInput,
): Promise<FunnelSessionView> {
  return startAndAwait(deps.temporal, {
    start: {
      type: 'funnelSessionWorkflow',
      workflowId: input.sessionId,
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: searchAttributesFor({
        accountId: input.accountId,
        storeId: input.storeId,
        customerId: input.customerId,
      }),
    },
    answer: { update: sessionOpenedUpdate, args: [] },
    deadlineMs: deps.responseTimeoutMs,
    onDeadline: () => {
      throw unavailable('The funnel session did not start in time', 'FUNNEL_SESSION_TIMEOUT');
    },
  });
}

/** A session as its workflow sees it now, or (ended, or no worker answering) as its row says. */
export async function funnelSessionView(
  deps: FunnelClientDeps,
  scope: Scope,
  sessionId: string,
): Promise<FunnelSessionView> {
  const row = await findFunnelSessionRow(deps.db, scope, sessionId);
  if (row.status === 'active') {
    const live = await deps.temporal.workflow
      .getHandle(sessionId)
      .query(funnelSessionQuery)
      .catch(() => null);
    if (live) return live;
  }
  const answers = await deps.db.funnelOfferAnswer.findMany({
    where: { sessionId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return {
    sessionId: row.id,
    funnelId: row.funnelId,
    storeId: row.storeId,
    customerId: row.customerId,
    status: row.status as FunnelSessionView['status'],
    currentStepId: row.currentStepId,
    checkoutPaymentId: row.checkoutPaymentId,
    answers: answers.map((answer) => answerView(answer)),
  };
}

/** A tracking event of the session's step: view/enter move the session there. */
export async function trackSessionStep(
  deps: FunnelClientDeps,
  scope: Scope,
  sessionId: string,
  event: { eventType: FunnelTrackingEvent; stepId: string },
): Promise<FunnelSessionView> {
  return update(deps, scope, sessionId, trackStepUpdate, [event]);
}

/** The checkout step was paid by this payment. */
export async function attachCheckout(
  deps: FunnelClientDeps,
  scope: Scope,
  sessionId: string,
  paymentId: string,
): Promise<FunnelSessionView> {
  return update(deps, scope, sessionId, checkoutPaidUpdate, [{ paymentId }], `checkout:${paymentId}`);
}

/**
 * The customer's answer to an offer. The update id is (step, answer): identical concurrent answers
 * are one update for the server, one handler run, one charge. After the session ended, a repeat
 * of the recorded answer is answered from its row.
 */
export async function answerOffer(
  deps: FunnelClientDeps,
  scope: Scope,
  sessionId: string,
  answer: { stepId: string; accept: boolean },
): Promise<OfferAnswerView> {
  try {
    const answered = update(
      deps,
      scope,
      sessionId,
      answerOfferUpdate,
      [answer],
      `offer:${answer.stepId}:${answer.accept}`,
    );
    return await withDeadline(answered, deps.responseTimeoutMs, () => stillCharging(scope, sessionId, answer));
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'FUNNEL_SESSION_ENDED') throw error;
    const row = await deps.db.funnelOfferAnswer.findUnique({
      where: { sessionId_stepId: { sessionId, stepId: answer.stepId } },
    });
    if (row && row.accept === answer.accept) return answerView(row);
    throw error;
  }
}

/**
 * The answer while its charge is still running at the deadline (the route answers 202): the payment
 * id is known already, derived from (session, step) as the workflow derives it; poll GET /payments/{id}
 * or GET /funnel-sessions/{id}.
 */
function stillCharging(scope: Scope, sessionId: string, answer: { stepId: string; accept: boolean }): OfferAnswerView {
  return {
    stepId: answer.stepId,
    accept: answer.accept,
    status: 'processing',
    paymentId: answer.accept ? upsellPaymentId(scope, sessionId, answer.stepId) : null,
    orderId: null,
    amount: null,
    currency: null,
    declineCode: null,
  };
}

async function withDeadline<T>(work: Promise<T>, ms: number, onDeadline: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onDeadline()), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

async function update<Ret, Arg>(
  deps: FunnelClientDeps,
  scope: Scope,
  sessionId: string,
  definition: UpdateDefinition<Ret, [Arg]>,
  args: [Arg],
  updateId?: string,
): Promise<Ret> {
  const row = await findFunnelSessionRow(deps.db, scope, sessionId);
  if (row.status !== 'active') throw conflict(`Funnel session is ${row.status}`, 'FUNNEL_SESSION_ENDED');
  try {
    return await deps.temporal.workflow
      .getHandle(sessionId)
      .executeUpdate(definition, { args, ...(updateId ? { updateId } : {}) });
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
      const failure = error.cause;
      const kind = (failure.details?.[0] as DomainErrorKind | undefined) ?? 'conflict';
      throw new DomainError(kind, failure.type ?? 'CONFLICT', failure.message);
    }
    // The run closed between the row read and the update (idle timeout, thankyou).
    const now = await findFunnelSessionRow(deps.db, scope, sessionId);
    if (now.status !== 'active') throw conflict(`Funnel session is ${now.status}`, 'FUNNEL_SESSION_ENDED');
    throw error;
  }
}
