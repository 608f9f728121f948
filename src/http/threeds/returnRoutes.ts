import { z } from 'zod';
import type { Request, Response } from 'express';
import { completeChallengeReturn } from '../../threeds/challengeReturn';
import { isValidReturnToken } from '../../threeds/returnLink';
import { unauthenticated } from '../../errors';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { toPublicThreeDsSession } from './present';
import { sessionParams, threeDsSessionSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['3ds'];

const returnQuery = z.object({
  token: z.string().min(1).max(128),
  threeDSServerTransID: z.string().max(64).optional(),
  /** Adyen's opaque result token (a flow's Adyen 3DS provider): sent to Adyen, never read as the result. */
  redirectResult: z.string().min(1).max(20_000).optional(),
});

/** The payment as a shopper's browser is told it after an authentication page (3DS challenge or step-up). */
export const returnedPaymentSchema = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  declineCode: z.string().nullable(),
  declineMessage: z.string().nullable(),
});
const returnAnswerSchema = z
  .object({ threedsSession: threeDsSessionSchema, payment: returnedPaymentSchema.nullable() })
  .openapi('ThreeDsReturnAnswer');

/**
 * The challenge return endpoint (GET or POST, the ACS redirects the browser here). No API key: a
 * browser carries none, so the signed token in the link authenticates it. It tells the waiting
 * workflow the cardholder is back, which asks the 3DS server for the result and records it; for a
 * payment it then waits for the payment's outcome. Answers that outcome synchronously, as JSON, or
 * as a 303 to the merchant's returnUrl when the session has one.
 */
export function registerThreeDsReturnRoutes({ unauthenticatedRouter }: Routers, deps: AppDeps): void {
  const { config } = deps;

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
    if (!isValidReturnToken(config, params.id, query.token))
      throw unauthenticated('Invalid or missing 3DS return token');
    const { session, payment } = await completeChallengeReturn(deps, params.id, query.redirectResult);
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
        description:
          "Where the cardholder's browser comes back after a challenge (a GET redirect, or a POST from the issuer's page): finishes the authentication and the payment waiting on it, and reports the outcome. Not called by merchant servers.",
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
