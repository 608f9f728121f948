import { loadCheckoutForPayment } from '../../commerce/orders';
import { scopeOf } from '../auth/scope';
import { keyedPaymentExists, runPayment } from '../../payments/startPayment';
import { assertThreeDsSessionFits } from '../../threeds/paymentValidation';
import { baseUrlSeenBy } from '../../threeds/returnLink';
import { beforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { badRequest } from '../core/errors';
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
      const { checkout, paymentFlowId } = await beforeWork(async () => {
        // A retry of a request whose payment already started (its API process died) follows that
        // payment, even if it has paid the session since: the workflow joined is the same.
        const started = await keyedPaymentExists(deps.db, scope, paymentId, idempotencyKeyOf(req));
        // 404 / 409 (paid, expired) fast; the workflow checks again under its claim.
        const found = await loadCheckoutForPayment(deps.db, {
          ...scope,
          checkoutSessionId: body.checkoutSessionId,
          requireOpen: !started,
        });
        // A free cart (a discount took the whole total) charges nothing: no card and no flow needed.
        const charges = found.amount > 0;
        if (charges && !body.paymentInstrumentId)
          throw badRequest(
            'paymentInstrumentId is required: the checkout session has a total to charge',
            'PAYMENT_INSTRUMENT_REQUIRED',
          );
        const flowId = body.paymentFlowId ?? found.store.defaultPaymentFlowId;
        if (charges && !flowId)
          throw badRequest('No paymentFlowId given and the store has no default payment flow', 'PAYMENT_FLOW_REQUIRED');
        await assertThreeDsSessionFits(deps.db, scope, body);
        return { checkout: found, paymentFlowId: flowId };
      });
      const outcome = await runPayment(
        {
          db: deps.db,
          temporal: deps.temporal,
          taskQueue: deps.taskQueue,
          responseTimeoutMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
        },
        {
          paymentId,
          ...scope,
          storeId: checkout.store.id,
          customerId: checkout.customer.id,
          paymentInstrumentId: body.paymentInstrumentId ?? null,
          amount: checkout.amount,
          currency: checkout.currency,
          intent: 'purchase',
          initiatedBy: body.initiatedBy,
          source: body.source,
          paymentFlowId,
          threedsSessionId: body.threedsSessionId ?? null,
          returnBaseUrl: baseUrlSeenBy(req),
          checkoutSessionId: checkout.checkoutSessionId,
          // The cardholder's address, sent by the merchant's server; never the caller's own socket.
          clientIp: body.customerIp ?? null,
          blikCode: body.blikCode ?? null,
          returnUrl: body.returnUrl ?? null,
          ...(body.browserInfo ? { browserInfo: body.browserInfo } : {}),
        },
      );
      return answerPayment(res, outcome);
    },
  );
}
