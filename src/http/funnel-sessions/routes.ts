import { funnelClientDeps } from '../../funnels/client';
import { answerOffer, attachCheckout, funnelSessionView, startFunnelSession } from '../../funnels/client';
import { newSessionInput } from '../../funnels/sessions';
import type { FunnelSessionView } from '../../funnels/sessionTypes';
import { scopeOf } from '../auth/scope';
import { beforeWork } from '../core/beforeWork';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import {
  answerOfferSchema,
  attachCheckoutSchema,
  funnelSessionParams,
  funnelSessionSchema,
  offerAnswerSchema,
  startFunnelSessionSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['funnel-sessions'];

const present = ({ sessionId, ...rest }: FunnelSessionView) => ({ id: sessionId, ...rest });

/** Funnel sessions (CRM keys): start, read, the checkout's payment, offer answers (one-click upsell). */
export function registerFunnelSessionRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const client = funnelClientDeps(deps);

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/funnel-sessions',
      summary: "Starts a customer's session in a funnel (its workflow fs_…), at the funnel's entry step",
      description:
        "Starts a customer in a funnel at its entry step, as a durable workflow (fs_…). Then report the paid checkout and the customer's answers to the session.",
      tags,
      body: startFunnelSessionSchema,
      example: {
        funnelId: 'funnelv2_4IkO7lPq2AzW5sXe8DcR',
        customerId: 'cus_3HdP0sVb6YkR2wQe9LmT',
        idleTimeoutSeconds: 1800,
      },
      response: funnelSessionSchema,
      errors: [503],
    },
    async ({ body, req }) => {
      const input = await beforeWork(() => newSessionInput(deps.db, scopeOf(req), body));
      return present(await startFunnelSession(client, input));
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/funnel-sessions/:sessionId',
      summary: 'Retrieves a funnel session: status, current step, paid checkout, offer answers',
      description: 'One funnel session: status, current step, paid checkout and the offers answered.',
      tags,
      params: funnelSessionParams,
      response: funnelSessionSchema,
    },
    async ({ params, req }) => present(await funnelSessionView(client, scopeOf(req), params.sessionId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/funnel-sessions/:sessionId/checkout',
      summary: 'Tells the session its checkout was paid by this payment (the offers charge its card on its processor)',
      description:
        'Tells the session which payment paid its checkout; accepted offers are then charged to that card on the same processor.',
      tags,
      params: funnelSessionParams,
      body: attachCheckoutSchema,
      example: { paymentId: 'pay_2WsX7eDc4RfV9tGb1YhN' },
      response: funnelSessionSchema,
      errors: [409],
    },
    async ({ params, body, req }) =>
      present(await attachCheckout(client, scopeOf(req), params.sessionId, body.paymentId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/funnel-sessions/:sessionId/offers/answer',
      summary:
        "Answers the current upsell/downsell offer; an accept charges the checkout's card once (merchant-initiated, same processor; still charging at the deadline: 202)",
      description:
        "Accepts or declines the current offer; the session moves to the next step. An accept charges the checkout's card once.",
      tags,
      params: funnelSessionParams,
      body: answerOfferSchema,
      example: { stepId: 'step_8DcR3fVt6GbY1hNu4JmK', accept: true },
      response: offerAnswerSchema,
      otherResponseStatuses: [202],
      errors: [409],
    },
    async ({ params, body, req, res }) => {
      const answer = await answerOffer(client, scopeOf(req), params.sessionId, body);
      // Still charging at the deadline: 202 with the payment's id (poll it or the session).
      if (answer.status === 'processing') res.status(202);
      return answer;
    },
  );
}
