import type { Request, Response, Router } from 'express';
import { funnelStepPage } from '../../checkout/hostedPage/funnelPage';
import { shopperLanguage, type HostedSession } from '../../checkout/hostedPage/pageData';
import { sendNotice, sendPage } from '../../checkout/hostedPage/render';
import { isDomainError } from '../../errors';
import { answerOffer, attachCheckout, funnelClientDeps, funnelSessionView } from '../../funnels/client';
import type { FunnelSessionView } from '../../funnels/sessionTypes';
import type { AppDeps } from '../core/context';
import { admitPost, admitSession, flowLinks, issueCsrf } from '../hosted-checkout/access';

const stepIdPattern = /^step_[A-Za-z0-9]{1,64}$/;

/** What the page says about the answer just given (`answered` in the query, set by the post's redirect). */
const answeredNotices: Record<string, string> = {
  succeeded: 'Added to your order. Thank you!',
  failed: 'The offer could not be charged, so nothing was charged for it. Your first order stands.',
};

/**
 * The funnel pages of a hosted checkout whose session belongs to a funnel session: after the paid
 * result page, `/checkout/{id}/offer?t=…` shows the funnel's current step (an upsell or downsell
 * offer, or the final page) under the same signed link, CSP and CSRF as the payment page. An
 * answer goes through the funnel API's own path (`answerOffer`: the session workflow's update, one
 * charge per offer whatever the number of posts), then back to the page with a 303.
 */
export function registerHostedFunnelRoutes(router: Router, deps: AppDeps): void {
  const client = funnelClientDeps(deps);
  const scopeOf = (session: HostedSession) => ({ accountId: session.accountId, mode: session.mode });

  /** The funnel session as it stands, its checkout attached (the API's update, idempotent per payment) when not yet. */
  async function funnelOf(
    req: Request,
    res: Response,
    session: HostedSession,
    token: string,
  ): Promise<FunnelSessionView | null> {
    const notFound = () =>
      sendNotice(res, 404, { heading: 'Page not found', message: 'There is no offer page for this order.' });
    if (!session.funnelSessionId) {
      await notFound();
      return null;
    }
    if (session.status !== 'paid' || !session.paymentId) {
      res.redirect(303, flowLinks(req, session, token).page());
      return null;
    }
    const scope = scopeOf(session);
    let view = await funnelSessionView(client, scope, session.funnelSessionId).catch((error: unknown) => {
      if (isDomainError(error, 'NOT_FOUND')) return null;
      throw error;
    });
    if (!view) {
      await notFound();
      return null;
    }
    if (view.status === 'active' && !view.checkoutPaymentId) {
      try {
        view = await attachCheckout(client, scope, session.funnelSessionId, session.paymentId);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        req.log?.warn({ code: error.code, funnelSessionId: session.funnelSessionId }, 'funnel checkout not attached');
        view = await funnelSessionView(client, scope, session.funnelSessionId);
      }
    }
    return view;
  }

  async function showStep(req: Request, res: Response, session: HostedSession, token: string): Promise<void> {
    const view = await funnelOf(req, res, session, token);
    if (!view) return;
    const continueLink = { linkUrl: session.successUrl, linkText: `Continue to ${session.store.name}` };
    if (view.status === 'expired')
      return sendNotice(res, 410, {
        heading: 'This offer has expired',
        message: 'Your order is paid. The offer is no longer available and nothing more was charged.',
        ...continueLink,
      });
    // Not attached to this payment (another checkout's funnel, or the session refused it): no offer to show.
    if (view.checkoutPaymentId !== session.paymentId)
      return sendNotice(res, 409, {
        heading: 'This offer is not available',
        message: 'Your order is paid, and nothing more was charged.',
        ...continueLink,
      });
    const language = shopperLanguage(session.locale, req.get('accept-language'));
    const page = await funnelStepPage(deps.db, scopeOf(session), view, language);
    const links = flowLinks(req, session, token);
    const common = { language, storeName: session.store.name, email: session.customer.email };
    const answered = typeof req.query.answered === 'string' ? (answeredNotices[req.query.answered] ?? null) : null;
    switch (page.kind) {
      case 'offer':
        return sendPage(res, 200, 'offer', {
          ...common,
          title: page.title,
          notice: answered,
          offerType: page.offerType,
          offerTitle: page.title,
          amount: page.amount,
          stepId: page.step.id,
          token,
          csrf: issueCsrf(deps.config, req, res, session.id),
          answerAction: links.answer,
        });
      case 'processing':
        return sendPage(res, 200, 'funnelEnd', {
          ...common,
          title: 'Adding the offer',
          kind: 'processing',
          refreshSeconds: 2,
          refreshUrl: links.offer(),
        });
      case 'unavailable':
        return sendNotice(res, 200, {
          heading: 'This offer is no longer available',
          message: 'Your order is paid and nothing more was charged.',
          ...continueLink,
        });
      default:
        return sendPage(res, 200, 'funnelEnd', {
          ...common,
          title: 'Order complete',
          kind: 'final',
          notice: answered,
          bought: page.bought,
          successUrl: session.successUrl,
        });
    }
  }

  router.get('/:sessionId/offer', async (req, res) => {
    const token = String(req.query.t ?? '');
    const session = await admitSession(deps, req, res, token);
    if (!session) return;
    await showStep(req, res, session, token);
  });

  router.post('/:sessionId/offer/answer', async (req, res) => {
    const admitted = await admitPost(deps, req, res);
    if (!admitted) return;
    const { session, token, body } = admitted;
    const view = await funnelOf(req, res, session, token);
    if (!view) return;
    const links = flowLinks(req, session, token);
    const stepId = typeof body.step === 'string' && stepIdPattern.test(body.step) ? body.step : null;
    const accept = body.answer === 'accept' ? true : body.answer === 'decline' ? false : null;
    if (!stepId || accept === null || view.checkoutPaymentId !== session.paymentId)
      return res.redirect(303, links.offer());
    try {
      const answer = await answerOffer(client, scopeOf(session), view.sessionId, { stepId, accept });
      res.redirect(303, links.offer({ answered: answer.status }));
    } catch (error) {
      // Another step by now, answered otherwise, the session ended: the page shows where it stands.
      if (!isDomainError(error)) throw error;
      req.log?.info({ code: error.code, funnelSessionId: view.sessionId }, 'offer answer refused');
      res.redirect(303, links.offer());
    }
  });
}
