import { scopeOf } from '../auth/scope';
import { findRefund } from '../../payments/queries';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { refundParams, refundSchema, toPublicRefund } from './validators';

/** A refund by its id, for callers that kept the id of `POST /payments/refund` (or of a 202 still pending). */
export function registerRefundRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  defineRoute(
    publicRouter,
    '/api/public/v1',
    {
      method: 'get',
      path: '/refunds/:refundId',
      summary: 'Retrieves a refund',
      description:
        'A refund of one of your payments (same account and mode) with its status and the payment as it stands now. ' +
        'Use it to follow a refund answered 202 pending until its processor confirms it. ' +
        "Another account's refund, or one of the other mode, answers 404.",
      tags: ['payments'],
      params: refundParams,
      response: refundSchema,
    },
    async ({ params, req }) => toPublicRefund(await findRefund(deps.db, scopeOf(req), params.refundId)),
  );
}
