import { createHash } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { searchAttributes } from '../../temporal/searchAttributes';
import { awaitOutcomeUpdate } from '../../workflows/payment/messages';
import type { Db } from '../db/prisma';
import { idPrefixes, newId, type IdKind } from '../domain/ids';
import type { OrderSummary, PaymentOutcome, PaymentStatus, PaymentWorkflowInput } from './workflowTypes';

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

/**
 * Starts the payment workflow with update-with-start and waits for `awaitOutcome`: terminal,
 * requires_action, or `processing` at the deadline (the workflow's own timer answers first; the
 * client-side race only covers a worker that never picks the update up). A workflow already
 * closed under this id (a replay after the idempotency record expired) is answered from the row.
 */
export async function runPayment(deps: PaymentRunDeps, input: PaymentWorkflowInput): Promise<PaymentOutcome> {
  const operation = new WithStartWorkflowOperation('paymentWorkflow', {
    workflowId: input.paymentId,
    taskQueue: deps.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    typedSearchAttributes: [
      { key: searchAttributes.StoreId, value: input.storeId },
      { key: searchAttributes.AccountId, value: input.accountId },
      { key: searchAttributes.CustomerId, value: input.customerId },
      { key: searchAttributes.PaymentStatus, value: 'processing' },
    ],
  });
  const update = deps.temporal.workflow.executeUpdateWithStart(awaitOutcomeUpdate, {
    args: [{ waitMs: deps.responseTimeoutMs }],
    startWorkflowOperation: operation,
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deps.responseTimeoutMs + 2_000);
  });
  try {
    const answer = await Promise.race([update, deadline]);
    if (answer !== 'deadline') return answer;
    update.catch(() => undefined);
    return processingOutcome(input);
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return (await outcomeFromRow(deps.db, input.paymentId)) ?? processingOutcome(input);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function processingOutcome(input: PaymentWorkflowInput): PaymentOutcome {
  return { kind: 'payment', paymentId: input.paymentId, status: 'processing', amount: input.amount, currency: input.currency, declineCode: null, declineMessage: null, redirectUrl: null, order: null };
}

/** The answer a finished payment gives, read from its row (and its order). */
export async function outcomeFromRow(db: Db, paymentId: string): Promise<PaymentOutcome | null> {
  const payment = await db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) return null;
  const order = payment.orderId ? await db.order.findUnique({ where: { id: payment.orderId } }) : null;
  const summary: OrderSummary | null = order && { id: order.id, status: order.status, totalAmount: order.totalAmount, currency: order.currency };
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
