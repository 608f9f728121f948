import type { Request } from 'express';
import { scopeOf } from '../auth/scope';
import { DomainError } from '../../errors';
import type { FollowUpOutcome } from '../../payments/followUpTypes';
import { runFollowUp } from '../../payments/followUps';
import { findOwnedPayment, findPaymentToCapture, readPayment, readRefund } from '../../payments/queries';
import { beforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { keyedBusinessId } from '../idempotency/middleware';
import type { Routers } from '../routes';
import { PaymentDeclinedError } from './answer';
import { registerDisputeRoutes } from './disputeRoutes';
import { captureSchema, refundRequestSchema, voidSchema } from './validators';
import { paymentSchema, refundResultSchema, toPublicPayment } from './views';

const basePath = '/api/public/v1';
const tags = ['payments'];

/**
 * The caller's payment (account + mode), or 404 before anything starts: a follow-up of a payment
 * that does not exist, or belongs to someone else, never reaches Temporal.
 */
function ownedPayment(deps: AppDeps, req: Request, paymentId: string) {
  return beforeWork(() => findOwnedPayment(deps.db, scopeOf(req), paymentId));
}

/** `<operation>_<payment id>_<request id derived from the Idempotency-Key and the request, or random>`. */
function settlementWorkflowId(operation: 'capture' | 'void', paymentId: string, req: Request): string {
  return `${operation}_${paymentId}_${keyedBusinessId(req, 'request', 'settlement', paymentId).slice(4)}`;
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
  // Still in flight at the deadline, or accepted by a processor that confirms later: not final yet.
  if (outcome === 'pending' || outcome.pending) res.status(202);
  return toPublicPayment(await readPayment(deps.db, scopeOf(req), paymentId));
}

/** Capture of an authorized payment (also `POST /payments/process` with intent capture). */
export async function runCaptureRequest(
  deps: AppDeps,
  req: Request,
  input: { storeId: string; paymentId?: string; orderId?: string; amount?: number },
) {
  const scope = scopeOf(req);
  const payment = await beforeWork(() => findPaymentToCapture(deps.db, scope, input));
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

export function registerPaymentFollowUpRoutes(routers: Routers, deps: AppDeps): void {
  const { publicRouter } = routers;
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payments/capture',
      summary: 'Captures an authorized payment (all or part of it)',
      description:
        'Captures all or part of an authorized payment (made with mode auth), e.g. once the goods ship. Without amount the whole authorization is captured.',
      tags,
      body: captureSchema,
      example: { paymentId: 'pay_2WsX7eDc4RfV9tGb1YhN', amount: 2000 },
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
      description:
        "Cancels an authorization that was not captured, releasing the hold on the customer's card; a captured payment is refunded instead.",
      tags,
      body: voidSchema,
      example: { paymentId: 'pay_2WsX7eDc4RfV9tGb1YhN' },
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
      description:
        '409 REFUND_EXCEEDS_CAPTURED or PAYMENT_NOT_REFUNDABLE; 409 PAYMENT_DISPUTED while the payment has an open or ' +
        'lost dispute (a won one allows refunds); 409 IDEMPOTENCY_KEY_REUSED for a key already used by another request.',
      tags,
      body: refundRequestSchema,
      example: { paymentId: 'pay_2WsX7eDc4RfV9tGb1YhN', amount: 1000, reason: 'requested_by_customer' },
      response: refundResultSchema,
      otherResponseStatuses: [202],
      errors: [402, 404, 409],
    },
    async ({ body, req, res }) => {
      const owned = await ownedPayment(deps, req, body.paymentId);
      // Bound to the key, the request and the payment: another refund under the same key never lands on it.
      const refundId = keyedBusinessId(req, 'refund', 'refund', owned.id);
      const outcome = await runFollowUp(
        deps,
        'refundWorkflow',
        { workflowId: refundId, payment: owned },
        { refundId, paymentId: owned.id, ...scopeOf(req), amount: body.amount ?? null, reason: body.reason ?? null },
      );
      const payment = await paymentAnswer(deps, req, owned.id, outcome, res);
      const refund = await readRefund(deps.db, refundId);
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

  registerDisputeRoutes(routers, deps);
}
