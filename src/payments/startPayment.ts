import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { searchAttributesFor, startAndAwait } from '../../temporal/client';
import { awaitOutcomeUpdate } from '../../workflows/payments/messages';
import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { idPrefixes, newId, type IdKind } from '../domain/ids';
import {
  paymentWorkflowTaskTimeout,
  type OrderSummary,
  type PaymentOutcome,
  type PaymentStatus,
  type PaymentWorkflowInput,
} from './workflowTypes';

/**
 * The payment workflow's signature, written here rather than imported from its module: that module
 * imports the activities' types, and the activities import this file (an import cycle).
 */
type PaymentWorkflow = (input: PaymentWorkflowInput) => Promise<PaymentOutcome>;

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The id of a money-moving record. With an Idempotency-Key it is derived from (caller scope, key),
 * so a request retried after its API process died starts (or finds) the SAME workflow, never a
 * second payment; without one it is random.
 */
export function businessId(kind: IdKind, scope: string, idempotencyKey: string | undefined): string {
  if (!idempotencyKey) return newId(kind);
  const digest = createHash('sha256').update(`${kind}\n${scope}\n${idempotencyKey}`).digest();
  let out = '';
  for (let i = 0; out.length < 20; i++) out += alphabet[digest[i % digest.length]! % 62];
  return `${idPrefixes[kind]}_${out}`;
}

export interface PaymentRunDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  /** How long the caller waits for the answer (PAYMENT_RESPONSE_TIMEOUT_MS). */
  responseTimeoutMs: number;
}

/** PaymentRunDeps of the API's or an activity's deps. */
export function paymentRunDeps(deps: {
  db: Db;
  temporal: Client;
  taskQueue: string;
  config: Pick<Config, 'PAYMENT_RESPONSE_TIMEOUT_MS'>;
}): PaymentRunDeps {
  return {
    db: deps.db,
    temporal: deps.temporal,
    taskQueue: deps.taskQueue,
    responseTimeoutMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
  };
}

/**
 * Starts the payment workflow with update-with-start and waits for `awaitOutcome`: terminal,
 * requires_action, or `processing` at the deadline (the workflow's own timer answers first; the
 * client-side race only covers a worker that never picks the update up). A running workflow under
 * this id is joined (a retry after the API died); one already closed is answered from its row, or
 * from its result when it refused before writing one.
 */
export async function runPayment(deps: PaymentRunDeps, input: PaymentWorkflowInput): Promise<PaymentOutcome> {
  return startAndAwait(deps.temporal, {
    start: {
      type: 'paymentWorkflow',
      workflowId: input.paymentId,
      taskQueue: deps.taskQueue,
      args: [{ ...input, dispatchAtFinalize: true }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowTaskTimeout: paymentWorkflowTaskTimeout,
      searchAttributes: searchAttributesFor({
        accountId: input.accountId,
        storeId: input.storeId,
        customerId: input.customerId,
        paymentStatus: 'processing',
      }),
    },
    answer: { update: awaitOutcomeUpdate, args: [{ waitMs: deps.responseTimeoutMs }] },
    deadlineMs: deps.responseTimeoutMs + 2_000,
    onDeadline: () => processingOutcome(input),
    whenClosed: async () =>
      (await outcomeFromRow(deps.db, input.paymentId)) ??
      (await deps.temporal.workflow.getHandle<PaymentWorkflow>(input.paymentId).result()),
  });
}

function processingOutcome(input: PaymentWorkflowInput): PaymentOutcome {
  return {
    kind: 'payment',
    paymentId: input.paymentId,
    status: 'processing',
    amount: input.amount,
    currency: input.currency,
    declineCode: null,
    declineMessage: null,
    redirectUrl: null,
    order: null,
  };
}

/** The answer a finished payment gives, read from its row (and its order). */
export async function outcomeFromRow(db: Db, paymentId: string): Promise<PaymentOutcome | null> {
  const payment = await db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) return null;
  const order = payment.orderId ? await db.order.findUnique({ where: { id: payment.orderId } }) : null;
  const summary: OrderSummary | null = order && {
    id: order.id,
    status: order.status,
    totalAmount: order.totalAmount,
    currency: order.currency,
  };
  return {
    kind: 'payment',
    paymentId,
    status: payment.status as PaymentStatus,
    amount: payment.amount,
    currency: payment.currency,
    declineCode: payment.declineCode,
    declineMessage: payment.declineMessage,
    redirectUrl: payment.redirectUrl,
    order: summary,
  };
}
