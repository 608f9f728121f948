import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Request } from 'express';
import { scopeOf } from '../../commerce/scope';
import { newId } from '../../domain/ids';
import { dispatchEventsNow } from '../../events/dispatch';
import { recordEvent } from '../../events/recordEvent';
import type { FollowUpOutcome, RefundInput, SettlementInput } from '../../payments/followUpTypes';
import { businessId } from '../../payments/startPayment';
import type { AppDeps } from '../core/context';
import { ApiError, conflict, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { idempotencyKeyOf, idempotencyScope } from '../idempotency/middleware';
import type { Routers } from '../routes';
import { PaymentDeclinedError } from './answer';
import {
  captureSchema,
  createDisputeSchema,
  disputeSchema,
  paymentSchema,
  refundRequestSchema,
  refundResultSchema,
  toPublicDispute,
  toPublicPayment,
  updateDisputeSchema,
  voidSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['payments'];

/** Runs a follow-up workflow and waits for it with the payment deadline; a closed one answers its stored result. */
async function runFollowUp(deps: AppDeps, type: 'refundWorkflow' | 'paymentSettlementWorkflow', workflowId: string, input: RefundInput | SettlementInput): Promise<FollowUpOutcome | 'pending'> {
  let handle;
  try {
    handle = await deps.temporal.workflow.start(type, { workflowId, taskQueue: deps.taskQueue, args: [input as never], workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'REJECT_DUPLICATE' });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    handle = deps.temporal.workflow.getHandle(workflowId);
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), deps.config.PAYMENT_RESPONSE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([handle.result() as Promise<FollowUpOutcome>, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function paymentAnswer(deps: AppDeps, req: Request, paymentId: string, outcome: FollowUpOutcome | 'pending', res: { status(code: number): unknown }) {
  if (outcome !== 'pending' && outcome.kind === 'rejected') throw new ApiError(outcome.httpStatus, outcome.code, outcome.message);
  if (outcome !== 'pending' && !outcome.succeeded) {
    throw new PaymentDeclinedError(outcome.message ?? 'The processor refused', outcome.code ?? 'processor_declined', { paymentId, ...(outcome.refundId ? { refundId: outcome.refundId } : {}) });
  }
  if (outcome === 'pending') res.status(202);
  const payment = await deps.db.payment.findFirstOrThrow({ where: { id: paymentId, ...scopeOf(req) } });
  return toPublicPayment(payment);
}

/** Capture of an authorized payment (also `POST /payments/process` with mode capture). */
export async function runCaptureRequest(deps: AppDeps, req: Request, input: { storeId: string; paymentId?: string; orderId?: string; amount?: number }) {
  const scope = scopeOf(req);
  const payment = await deps.db.payment.findFirst({
    where: { ...scope, storeId: input.storeId, ...(input.paymentId ? { id: input.paymentId } : { orderId: input.orderId, status: 'authorized' }) },
    orderBy: { createdAt: 'desc' },
  });
  if (!payment) throw notFound('Authorized payment');
  const workflowId = `capture_${payment.id}_${businessId('request', idempotencyScope(req.auth), idempotencyKeyOf(req)).slice(4)}`;
  const outcome = await runFollowUp(deps, 'paymentSettlementWorkflow', workflowId, { operation: 'capture', paymentId: payment.id, ...scope, amount: input.amount ?? null });
  const answer = await paymentAnswer(deps, req, payment.id, outcome, req.res!);
  return { payment: { id: answer.id, status: answer.status, amount: answer.amount, currency: answer.currency }, order: null, redirectUrl: null };
}

export function registerPaymentFollowUpRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const { db } = deps;
  defineRoute(publicRouter, basePath, { method: 'post', path: '/payments/capture', summary: 'Captures an authorized payment (all or part of it)', tags, body: captureSchema, response: paymentSchema, errors: [402, 404, 409] }, async ({ body, req, res }) => {
    const workflowId = `capture_${body.paymentId}_${businessId('request', idempotencyScope(req.auth), idempotencyKeyOf(req)).slice(4)}`;
    const outcome = await runFollowUp(deps, 'paymentSettlementWorkflow', workflowId, { operation: 'capture', paymentId: body.paymentId, ...scopeOf(req), amount: body.amount ?? null });
    return paymentAnswer(deps, req, body.paymentId, outcome, res);
  });

  defineRoute(publicRouter, basePath, { method: 'post', path: '/payments/void', summary: 'Voids an uncaptured authorization', tags, body: voidSchema, response: paymentSchema, errors: [402, 404, 409] }, async ({ body, req, res }) => {
    const workflowId = `void_${body.paymentId}_${businessId('request', idempotencyScope(req.auth), idempotencyKeyOf(req)).slice(4)}`;
    const outcome = await runFollowUp(deps, 'paymentSettlementWorkflow', workflowId, { operation: 'void', paymentId: body.paymentId, ...scopeOf(req) });
    return paymentAnswer(deps, req, body.paymentId, outcome, res);
  });

  defineRoute(publicRouter, basePath, { method: 'post', path: '/payments/refund', summary: 'Refunds a captured payment in full or in part (never above the captured amount)', tags, body: refundRequestSchema, response: refundResultSchema, errors: [402, 404, 409] }, async ({ body, req, res }) => {
    const refundId = businessId('refund', idempotencyScope(req.auth), idempotencyKeyOf(req));
    const outcome = await runFollowUp(deps, 'refundWorkflow', refundId, { refundId, paymentId: body.paymentId, ...scopeOf(req), amount: body.amount ?? null, reason: body.reason ?? null });
    const payment = await paymentAnswer(deps, req, body.paymentId, outcome, res);
    const refund = await db.refund.findUniqueOrThrow({ where: { id: refundId } });
    return { id: refund.id, paymentId: payment.id, amount: refund.amount, currency: refund.currency, status: refund.status, reason: refund.reason, failureCode: refund.failureCode, createdAt: refund.createdAt.toISOString(), payment: { id: payment.id, status: payment.status, amount: payment.amount, currency: payment.currency } };
  });

  defineRoute(publicRouter, basePath, { method: 'post', path: '/payments/disputes/create', summary: 'Records a dispute (chargeback) against a captured payment', tags, body: createDisputeSchema, response: disputeSchema, errors: [404, 409] }, async ({ body, req }) => {
    const scope = scopeOf(req);
    const { dispute, eventId } = await db.$transaction(async (tx) => {
      const payment = await tx.payment.findFirst({ where: { id: body.paymentId, ...scope } });
      if (!payment) throw notFound('Payment');
      if (payment.amountCaptured === 0) throw conflict('Only a captured payment can be disputed', 'PAYMENT_NOT_CAPTURED');
      if ((body.amount ?? 0) > payment.amountCaptured) throw conflict(`A dispute cannot exceed the captured ${payment.amountCaptured}`, 'DISPUTE_EXCEEDS_CAPTURED');
      const row = await tx.dispute.create({ data: { id: newId('dispute'), paymentId: payment.id, amount: body.amount ?? payment.amountCaptured, currency: payment.currency, status: body.status, reason: body.reason ?? null } });
      const event = await recordEvent(tx, { ...scope, storeId: payment.storeId, customerId: payment.customerId, eventType: 's_payment_disputed', properties: { paymentId: payment.id, disputeId: row.id, amount: row.amount, currency: row.currency, reason: row.reason, status: row.status } });
      return { dispute: row, eventId: event.id };
    });
    await dispatchEventsNow({ db, temporal: deps.temporal, taskQueue: deps.taskQueue }, [eventId]).catch((error: unknown) => req.log?.warn({ err: error }, 'event dispatch deferred to the outbox sweep'));
    return toPublicDispute(dispute);
  });

  defineRoute(publicRouter, basePath, { method: 'post', path: '/payments/disputes/update', summary: "Updates a dispute's status (needs_response, under_review, won, lost)", tags, body: updateDisputeSchema, response: disputeSchema, errors: [404] }, async ({ body, req }) => {
    const dispute = await db.dispute.findFirst({ where: { id: body.disputeId, payment: scopeOf(req) } });
    if (!dispute) throw notFound('Dispute');
    return toPublicDispute(await db.dispute.update({ where: { id: dispute.id }, data: { status: body.status } }));
  });
}
