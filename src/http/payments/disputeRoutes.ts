import { scopeOf } from '../auth/scope';
import { isDomainError } from '../../errors';
import { dispatchEventsNow } from '../../events/dispatch';
import { createDispute, findDispute, setDisputeStatus } from '../../payments/disputes';
import { beforeWork, refusedBeforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { createDisputeSchema, updateDisputeSchema } from './validators';
import { disputeSchema, toPublicDispute } from './views';

const basePath = '/api/public/v1';
const tags = ['payments'];

/** Disputes (chargebacks) recorded against captured payments, and their status changes. */
export function registerDisputeRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const { db } = deps;
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/payments/disputes/create',
      summary: 'Records a dispute (chargeback) against a captured payment',
      description:
        'Records a chargeback the merchant learnt of outside the engine against a captured payment; disputes from Stripe and Adyen arrive by their webhooks. An open dispute blocks refunds.',
      tags,
      body: createDisputeSchema,
      example: { paymentId: 'pay_2WsX7eDc4RfV9tGb1YhN', amount: 2500, reason: 'fraudulent' },
      response: disputeSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const { dispute, eventId } = await createDispute(db, scopeOf(req), body).catch((error: unknown) => {
        // An unknown payment is refused before any work; a payment that cannot be disputed (409) is an answer to keep.
        throw isDomainError(error, 'NOT_FOUND') ? refusedBeforeWork(error) : error;
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
      description:
        'Moves a dispute along needs_response, under_review, won or lost; a won dispute allows refunds again.',
      tags,
      body: updateDisputeSchema,
      example: { disputeId: 'dp_4RfV1tGb6YhN9uJm2IkO', status: 'under_review' },
      response: disputeSchema,
      errors: [404],
    },
    async ({ body, req }) => {
      const dispute = await beforeWork(() => findDispute(db, scopeOf(req), body.disputeId));
      return toPublicDispute(await setDisputeStatus(db, dispute, body.status));
    },
  );
}
