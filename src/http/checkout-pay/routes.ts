import { checkoutPaymentInput } from '../../payments/paymentInputs';
import { paymentRunDeps, runPayment } from '../../payments/startPayment';
import { baseUrlSeenBy } from '../../threeds/returnLink';
import { scopeOf } from '../auth/scope';
import { beforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { idempotencyKeyOf, keyedBusinessId } from '../idempotency/middleware';
import { answerPayment } from '../payments/answer';
import type { Routers } from '../routes';
import { payV2ResponseSchema, payV2Schema } from './validators';

const basePath = '/api/public/v1';

export function registerCheckoutPayRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout/pay-v2',
      summary:
        'Pays a checkout session (declined: 402 {code, message, data.paymentId}; still running at the deadline: 202)',
      description:
        "Pays a checkout session with a stored card through paymentFlowId or the store's default flow, and answers the order and payment. Send an Idempotency-Key: a retry then gets the first answer instead of a second charge.",
      tags: ['checkout'],
      body: payV2Schema,
      example: {
        checkoutSessionId: 'ch_3WsX6eDc9RfV2tGb5YhN',
        paymentInstrumentId: 'pi_7GtN4cXz1RqW8eLp5VyB',
        customerIp: '203.0.113.7',
      },
      response: payV2ResponseSchema,
      otherResponseStatuses: [202],
      errors: [402, 404, 409],
    },
    async ({ body, req, res }) => {
      const scope = scopeOf(req);
      const paymentId = keyedBusinessId(req, 'payment', 'pay-v2');
      const input = await beforeWork(() =>
        checkoutPaymentInput(deps.db, scope, {
          ...body,
          paymentId,
          idempotencyKey: idempotencyKeyOf(req),
          returnBaseUrl: baseUrlSeenBy(req),
        }),
      );
      return answerPayment(res, await runPayment(paymentRunDeps(deps), input));
    },
  );
}
