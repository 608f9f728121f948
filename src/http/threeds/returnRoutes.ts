import { z } from 'zod';
import type { Request, Response } from 'express';
import { awaitOutcomeUpdate } from '../../../workflows/payments/messages';
import { threeDsChallengeReturnedUpdate } from '../../../workflows/threeds/authentication';
import type { PaymentOutcome } from '../../payments/workflowTypes';
import { isValidReturnToken } from '../../threeds/returnLink';
import type { AppDeps } from '../core/context';
import { notAuthorized, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { toPublicThreeDsSession } from './present';
import { sessionParams, threeDsSessionSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['3ds'];

const returnQuery = z.object({
  token: z.string().min(1).max(128),
  threeDSServerTransID: z.string().max(64).optional(),
});

const paymentResultSchema = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  declineCode: z.string().nullable(),
  declineMessage: z.string().nullable(),
});
const returnAnswerSchema = z
  .object({ threedsSession: threeDsSessionSchema, payment: paymentResultSchema.nullable() })
  .openapi('ThreeDsReturnAnswer');

type PaymentResult = z.infer<typeof paymentResultSchema>;

/**
 * The challenge return endpoint (GET or POST, the ACS redirects the browser here). No API key: a
 * browser carries none, so the signed token in the link authenticates it. It tells the waiting
 * workflow the cardholder is back, which asks the 3DS server for the result and records it; for a
 * payment it then waits for the payment's outcome. Answers that outcome synchronously, as JSON, or
 * as a 303 to the merchant's returnUrl when the session has one.
 */
export function registerThreeDsReturnRoutes({ unauthenticatedRouter }: Routers, deps: AppDeps): void {
  const { db, temporal, config } = deps;

  async function paymentResult(paymentId: string): Promise<PaymentResult | null> {
    let outcome: PaymentOutcome | null = null;
    try {
      outcome = await temporal.workflow
        .getHandle(paymentId)
        .executeUpdate(awaitOutcomeUpdate, { args: [{ waitMs: config.PAYMENT_RESPONSE_TIMEOUT_MS }] });
    } catch {
      // The workflow has finished (or is unreachable): the row has the final state.
    }
    if (outcome?.kind === 'payment') {
      return {
        id: outcome.paymentId,
        status: outcome.status,
        amount: outcome.amount,
        currency: outcome.currency,
        declineCode: outcome.declineCode,
        declineMessage: outcome.declineMessage,
      };
    }
    const row = await db.payment.findUnique({ where: { id: paymentId } });
    return row
      ? {
          id: row.id,
          status: row.status,
          amount: row.amount,
          currency: row.currency,
          declineCode: row.declineCode,
          declineMessage: row.declineMessage,
        }
      : null;
  }

  async function handle({
    params,
    query,
    res,
  }: {
    params: { id: string };
    query: z.infer<typeof returnQuery>;
    req: Request;
    res: Response;
  }) {
    if (!isValidReturnToken(config, params.id, query.token)) throw notAuthorized('Invalid or missing 3DS return token');
    let session = await db.threeDsSession.findUnique({ where: { id: params.id } });
    if (!session) throw notFound('3DS session');
    if (session.status === 'challenge_required' && session.workflowId) {
      try {
        await temporal.workflow.getHandle(session.workflowId).executeUpdate(threeDsChallengeReturnedUpdate);
      } catch {
        // The workflow already moved on (timed out or finished): the row below tells what happened.
      }
      session = await db.threeDsSession.findUniqueOrThrow({ where: { id: params.id } });
    }
    const payment =
      session.paymentId && session.status !== 'challenge_required' ? await paymentResult(session.paymentId) : null;
    if (session.returnUrl) {
      const target = new URL(session.returnUrl);
      target.searchParams.set('threedsSessionId', session.id);
      target.searchParams.set('status', session.status);
      if (payment) {
        target.searchParams.set('paymentId', payment.id);
        target.searchParams.set('paymentStatus', payment.status);
      }
      res.redirect(303, target.toString());
      return undefined as never;
    }
    return { threedsSession: toPublicThreeDsSession(session), payment };
  }

  for (const method of ['get', 'post'] as const) {
    defineRoute(
      unauthenticatedRouter,
      basePath,
      {
        method,
        path: '/threeds/:id/return',
        summary:
          'Challenge return (browser redirect from the ACS, authenticated by the signed token in the link): reports the final 3DS and payment outcome',
        tags,
        security: 'none',
        params: sessionParams,
        query: returnQuery,
        response: returnAnswerSchema,
        redirectStatus: 303,
        errors: [401, 404],
      },
      handle,
    );
  }
}
