import type { Request } from 'express';
import { receiveProcessorWebhook } from '../../payments/processorWebhooks';
import type { AppDeps } from '../core/context';
import { keepRawBodyUnder, rawBodyOf } from '../core/requestBody';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { processorWebhookBodySchema, processorWebhookParams, processorWebhookReceiptSchema } from './validators';

const basePath = '/api/public/v1';
const path = '/processor-webhooks';

function lowerCaseHeaders(req: Request): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]),
  );
}

/**
 * Where processors send their asynchronous outcomes (Stripe events, Adyen notifications). No API
 * key: the vendor's signature, verified with the processor's own secret over the raw body,
 * authenticates the call. 401 for a bad or missing signature, 404 for an unknown processor, 400
 * for a type that sends no webhooks or a body that is not one of its webhooks, 409 when the
 * processor has no signing secret configured, 503 for an event about a payment still being
 * processed (nothing recorded; the vendor retries). Any 2xx tells the vendor not to send it again.
 */
export function registerProcessorWebhookRoutes({ unauthenticatedRouter }: Routers, deps: AppDeps): void {
  keepRawBodyUnder(`${basePath}${path}/`);
  defineRoute(
    unauthenticatedRouter,
    basePath,
    {
      method: 'post',
      path: `${path}/:processorId`,
      summary: "Receives a processor's signed webhook (Stripe, Adyen) and settles what it confirms",
      description:
        "Where Stripe and Adyen send their asynchronous outcomes (refunds and captures confirmed later, disputes). No API key: the vendor's signature over the raw body, checked with the processor's signing secret, authenticates the call. Configure this URL in the vendor's dashboard; it is not for merchant clients.",
      tags: ['processors'],
      security: 'none',
      params: processorWebhookParams,
      body: processorWebhookBodySchema,
      example: {
        id: 'evt_1QdE3fGh5JkL7mNp',
        object: 'event',
        type: 'charge.refund.updated',
        data: { object: { id: 're_1QdE3fGh5JkL7mNp', object: 'refund', status: 'succeeded' } },
      },
      response: processorWebhookReceiptSchema,
      errors: [401, 409, 503],
    },
    async ({ params, req }) => {
      const receipt = await receiveProcessorWebhook(deps, params.processorId, {
        rawBody: rawBodyOf(req),
        headers: lowerCaseHeaders(req),
      });
      return {
        received: receipt.received,
        applied: receipt.applied,
        duplicates: receipt.duplicates,
        ...receipt.acknowledgement,
      };
    },
  );
}
