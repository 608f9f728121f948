import type { Request } from 'express';
import { scopeOf } from '../auth/scope';
import { newId } from '../../domain/ids';
import { DomainError } from '../../errors';
import { dispatchEventsNow } from '../../events/dispatch';
import { recordEvent } from '../../events/recordEvent';
import type { FollowUpOutcome, RefundInput, SettlementInput } from '../../payments/followUpTypes';
import { businessId } from '../../payments/startPayment';
import { searchAttributesFor, startAndAwait } from '../../../temporal/client';
import { beforeWork, refusedBeforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { conflict, notFound } from '../core/errors';
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

interface FollowUpTarget {
  workflowId: string;
  payment: { id: string; accountId: string; storeId: string; customerId: string | null };
}

/**
 * Runs a follow-up workflow and waits for it with the payment deadline; a closed one answers its
 * stored result. The same workflow id (derived from the Idempotency-Key) is joined, never started
 * twice, so a retry after an API crash follows the run its first request started.
 */
async function runFollowUp(
  deps: AppDeps,
  type: 'refundWorkflow' | 'paymentSettlementWorkflow',
  target: FollowUpTarget,
  input: RefundInput | SettlementInput,
): Promise<FollowUpOutcome | 'pending'> {
  const { workflowId, payment } = target;
  return startAndAwait<FollowUpOutcome, 'pending'>(deps.temporal, {
    start: {
      type,
      workflowId,
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: searchAttributesFor({
        accountId: payment.accountId,
        storeId: payment.storeId,
        customerId: payment.customerId,
      }),
    },
    answer: { result: true },
    deadlineMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
    onDeadline: () => 'pending',
  });
}

/**
 * The caller's payment (account + mode), or 404 before anything starts: a follow-up of a payment
 * that does not exist, or belongs to someone else, never reaches Temporal.
 */
function ownedPayment(deps: AppDeps, req: Request, paymentId: string) {
  return beforeWork(async () => {
    const payment = await deps.db.payment.findFirst({
      where: { id: paymentId, ...scopeOf(req) },
      select: { id: true, accountId: true, storeId: true, customerId: true },
    });
    if (!payment) throw notFound('Payment');
    return payment;
  });
}

/** `<operation>_<payment id>_<request id derived from the Idempotency-Key, or random>`. */
function settlementWorkflowId(operation: 'capture' | 'void', paymentId: string, req: Request): string {
  return `${operation}_${paymentId}_${businessId('request', idempotencyScope(req.auth), idempotencyKeyOf(req)).slice(4)}`;
}

async function paymentAnswer(
  deps: AppDeps,
  req: Request,
  paymentId: string,
  outcome: FollowUpOutcome | 'pending',
  res: { status(code: number): unknown },
) {
  if (outcome !== 'pending' && outcome.kind === 'rejected') throw DomainError.from(outcome.error);
  if (outcome !== 'pending' && !outcome.succeeded) {
    throw new PaymentDeclinedError(outcome.message ?? 'The processor refused', outcome.code ?? 'processor_declined', {
      paymentId,
      ...(outcome.refundId ? { refundId: outcome.refundId } : {}),
    });
  }
  if (outcome === 'pending') res.status(202);
  const payment = await deps.db.payment.findFirstOrThrow({ where: { id: paymentId, ...scopeOf(req) } });
  return toPublicPayment(payment);
}

/** Capture of an authorized payment (also `POST /payments/process` with mode capture). */
export async function runCaptureRequest(
  deps: AppDeps,
  req: Request,
  input: { storeId: string; paymentId?: string; orderId?: string; amount?: number },
) {
  const scope = scopeOf(req);
  const payment = await beforeWork(async () => {
    const found = await deps.db.payment.findFirst({
      where: {
        ...scope,
        storeId: input.storeId,
        ...(input.paymentId ? { id: input.paymentId } : { orderId: input.orderId, status: 'authorized' }),
      },
      orderBy: { createdAt: 'desc' },
    });
    if (!found) throw notFound('Authorized payment');
    return found;
  });
  const target = { workflowId: settlementWorkflowId('capture', payment.id, req), payment };
  const outcome = await runFollowUp(deps, 'paymentSettlementWorkflow', target, {
    operation: 'capture',
    paymentId: payment.id,
    ...scope,
    amount: input.amount ?? null,
  });
  const answer = await paymentAnswer(deps, req, payment.id, outcome, req.res!);
  return {
    payment: { id: answer.id, status: answer.status, amount: answer.amount, currency: answer.currency },
    order: null,
    redirectUrl: null,
  };
}

export function registerPaymentFollowUpRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const { db } = deps;
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payments/capture',
      summary: 'Captures an authorized payment (all or part of it)',
      tags,
      body: captureSchema,
      response: paymentSchema,
      otherResponseStatuses: [202],
      errors: [402, 404, 409],
    },
    async ({ body, req, res }) => {
      const payment = await ownedPayment(deps, req, body.paymentId);
      const target = { workflowId: settlementWorkflowId('capture', payment.id, req), payment };
      const outcome = await runFollowUp(deps, 'paymentSettlementWorkflow', target, {
        operation: 'capture',
        paymentId: payment.id,
        ...scopeOf(req),
        amount: body.amount ?? null,
      });
      return paymentAnswer(deps, req, payment.id, outcome, res);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payments/void',
      summary: 'Voids an uncaptured authorization',
      tags,
      body: voidSchema,
      response: paymentSchema,
      otherResponseStatuses: [202],
      errors: [402, 404, 409],
    },
    async ({ body, req, res }) => {
      const payment = await ownedPayment(deps, req, body.paymentId);
      const target = { workflowId: settlementWorkflowId('void', payment.id, req), payment };
      const outcome = await runFollowUp(deps, 'paymentSettlementWorkflow', target, {
        operation: 'void',
        paymentId: payment.id,
        ...scopeOf(req),
      });
      return paymentAnswer(deps, req, payment.id, outcome, res);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payments/refund',
      summary: 'Refunds a captured payment in full or in part (never above the captured amount)',
      tags,
      body: refundRequestSchema,
      response: refundResultSchema,
      otherResponseStatuses: [202],
      errors: [402, 404, 409],
    },
    async ({ body, req, res }) => {
      const owned = await ownedPayment(deps, req, body.paymentId);
      const refundId = businessId('refund', idempotencyScope(req.auth), idempotencyKeyOf(req));
      const outcome = await runFollowUp(
        deps,
        'refundWorkflow',
        { workflowId: refundId, payment: owned },
        { refundId, paymentId: owned.id, ...scopeOf(req), amount: body.amount ?? null, reason: body.reason ?? null },
      );
      const payment = await paymentAnswer(deps, req, owned.id, outcome, res);
      const refund = await db.refund.findUniqueOrThrow({ where: { id: refundId } });
      return {
        id: refund.id,
        paymentId: payment.id,
        amount: refund.amount,
        currency: refund.currency,
        status: refund.status,
        reason: refund.reason,
        failureCode: refund.failureCode,
        createdAt: refund.createdAt.toISOString(),
        payment: { id: payment.id, status: payment.status, amount: payment.amount, currency: payment.currency },
      };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payments/disputes/create',
      summary: 'Records a dispute (chargeback) against a captured payment',
      tags,
      body: createDisputeSchema,
      response: disputeSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const { dispute, eventId } = await db.$transaction(async (tx) => {
        const payment = await tx.payment.findFirst({ where: { id: body.paymentId, ...scope } });
        if (!payment) throw refusedBeforeWork(notFound('Payment'));
        if (payment.amountCaptured === 0)
          throw conflict('Only a captured payment can be disputed', 'PAYMENT_NOT_CAPTURED');
        if ((body.amount ?? 0) > payment.amountCaptured)
          throw conflict(`A dispute cannot exceed the captured ${payment.amountCaptured}`, 'DISPUTE_EXCEEDS_CAPTURED');
        const row = await tx.dispute.create({
          data: {
            id: newId('dispute'),
            paymentId: payment.id,
            amount: body.amount ?? payment.amountCaptured,
            currency: payment.currency,
            status: body.status,
            reason: body.reason ?? null,
          },
        });
        const event = await recordEvent(tx, {
          ...scope,
          storeId: payment.storeId,
          customerId: payment.customerId,
          eventType: 's_payment_disputed',
          properties: {
            paymentId: payment.id,
            disputeId: row.id,
            amount: row.amount,
            currency: row.currency,
            reason: row.reason,
            status: row.status,
          },
        });
        return { dispute: row, eventId: event.id };
      });
      await dispatchEventsNow({ db, temporal: deps.temporal, taskQueue: deps.taskQueue }, [eventId]).catch(
        (error: unknown) => req.log?.warn({ err: error }, 'event dispatch deferred to the outbox sweep'),
      );
      return toPublicDispute(dispute);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payments/disputes/update',
      summary: "Updates a dispute's status (needs_response, under_review, won, lost)",
      tags,
      body: updateDisputeSchema,
      response: disputeSchema,
      errors: [404],
    },
    async ({ body, req }) => {
      const dispute = await db.dispute.findFirst({ where: { id: body.disputeId, payment: scopeOf(req) } });
      if (!dispute) throw refusedBeforeWork(notFound('Dispute'));
      return toPublicDispute(await db.dispute.update({ where: { id: dispute.id }, data: { status: body.status } }));
    },
  );
}
