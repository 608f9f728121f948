import type { Request, Response } from 'express';
import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import { isValidStepUpToken } from '../../payments/stepUpLinks';
import { stepUpReturn, stepUpStart, type StepUpLanding } from '../../payments/stepUpBrowser';
import { unauthenticated } from '../../errors';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { returnedPaymentSchema } from '../threeds/returnRoutes';
import { sendAuthenticationForm, sendResultPage } from './pages';

const basePath = '/api/public/v1';
const tags = ['payments'];

const params = z.object({ paymentId: idOf('pay') });
const linkQuery = z.object({
  attempt: z.coerce.number().int().min(1).max(100),
  token: z.string().min(1).max(128),
});
/** What a processor's page may send back with the browser (Adyen: redirectResult); Stripe's own parameters are not read. */
const returnDataSchema = z.object({
  redirectResult: z.string().min(1).max(20_000).optional(),
  threeDSResult: z.string().min(1).max(20_000).optional(),
});
const returnQuery = linkQuery.extend(returnDataSchema.shape);

const landingSchema = z
  .object({
    settled: z.boolean().openapi({ description: 'false: the processor has not decided yet; the shopper may go back' }),
    payment: returnedPaymentSchema.nullable(),
  })
  .openapi('PaymentAuthenticationResult');

/** What both browser links declare: signed (401 without a valid token), no API key, a redirect or a page. */
const browserLink = {
  tags,
  security: 'none' as const,
  params,
  response: landingSchema,
  redirectStatus: 303,
  htmlAnswer: true,
  errors: [401],
};

/**
 * The browser links of a processor-hosted authentication (step-up), both signed, neither needing
 * an API key: the start link (the payment's `redirectUrl`) sends the shopper on to the processor's
 * page; the return link, where the processor sends them back, settles the payment and sends them
 * on to the caller's `returnUrl` with `paymentId` and `status`, or shows the result.
 */
export function registerPaymentAuthenticationRoutes({ unauthenticatedRouter }: Routers, deps: AppDeps): void {
  const { config } = deps;
  const checkToken = (paymentId: string, query: z.infer<typeof linkQuery>) => {
    if (!isValidStepUpToken(config, paymentId, query.attempt, query.token))
      throw unauthenticated('Invalid or missing authentication link token');
  };
  const startLink = (req: Request) =>
    `${req.baseUrl}${req.path.replace(/\/return$/, '')}?${new URLSearchParams({ attempt: String(req.query.attempt), token: String(req.query.token) }).toString()}`;

  function land(req: Request, res: Response, landing: StepUpLanding) {
    if (landing.kind === 'processor') {
      if (landing.action.method === 'GET') res.redirect(303, landing.action.url);
      else sendAuthenticationForm(res, landing.action);
      return undefined as never;
    }
    const { payment, returnUrl, settled } = landing;
    if (returnUrl && payment && settled) {
      const target = new URL(returnUrl);
      target.searchParams.set('paymentId', payment.id);
      target.searchParams.set('status', payment.status);
      res.redirect(303, target.toString());
      return undefined as never;
    }
    if (req.accepts(['html', 'json']) === 'html') {
      sendResultPage(res, payment, settled ? null : startLink(req));
      return undefined as never;
    }
    return { settled, payment };
  }

  defineRoute(
    unauthenticatedRouter,
    basePath,
    {
      method: 'get',
      path: '/payments/:paymentId/authentication',
      summary: "Sends the shopper's browser to the processor's 3-D Secure page (the payment's redirectUrl)",
      description:
        "The redirectUrl of a payment in requires_action after a processor asked for authentication (step-up). Not called by merchant servers: open it in the shopper's browser. While the payment waits it redirects (303) to the processor's page, or posts a form there; afterwards it shows the result like the return link.",
      ...browserLink,
      query: linkQuery,
    },
    async ({ params: { paymentId }, query, req, res }) => {
      checkToken(paymentId, query);
      return land(req, res, await stepUpStart(deps, paymentId, query.attempt));
    },
  );

  for (const method of ['get', 'post'] as const) {
    defineRoute(
      unauthenticatedRouter,
      basePath,
      {
        method,
        path: '/payments/:paymentId/authentication/return',
        summary: "Where the processor sends the shopper's browser back after its 3-D Secure page (step-up)",
        description:
          "Settles the payment with the processor's result (once, however often the browser comes back) and sends the browser on to the payment's returnUrl with paymentId and status, or shows the result (HTML, or JSON for Accept: application/json). A return after the payment ended only shows its result. Not called by merchant servers.",
        ...browserLink,
        query: returnQuery,
      },
      async ({ params: { paymentId }, query, req, res }) => {
        checkToken(paymentId, query);
        const posted = returnDataSchema.safeParse(req.body ?? {});
        const fields = { ...(posted.success ? posted.data : {}), ...returnDataSchema.parse(query) };
        const returnData = Object.keys(fields).length > 0 ? (fields as Record<string, string>) : undefined;
        return land(req, res, await stepUpReturn(deps, paymentId, query.attempt, returnData));
      },
    );
  }
}
