import type { BrowserInfo } from '../../processors/types';
import type { Request, Response, Router } from 'express';
import { parseCardForm, redisplayedValues } from '../../checkout/hostedPage/cardForm';
import { shopperDeclineReason } from '../../checkout/hostedPage/declineWords';
import { attemptIdPattern } from '../../checkout/hostedPage/links';
import { formatAmount, shopperLanguage, shopperStatus, type HostedSession } from '../../checkout/hostedPage/pageData';
import { findSessionPayment, payHostedSession, returnChallengeToPage } from '../../checkout/hostedPage/pay';
import { sendPage } from '../../checkout/hostedPage/render';
import { isDomainError } from '../../errors';
import type { AppDeps } from '../core/context';
import { admitPost, admitSession, flowLinks, originOf } from './access';
import { renderCheckoutPage } from './checkoutPage';

const paidStatuses = new Set(['authorized', 'succeeded', 'partially_refunded', 'refunded']);

/**
 * Paying, and the result page. A post answers 303 to the result page (post, redirect, get): a
 * reload of the result never posts again, and a repeated post of one form joins its payment.
 */
export function registerHostedPayRoutes(router: Router, deps: AppDeps): void {
  router.post('/:sessionId/pay', async (req, res) => {
    const admitted = await admitPost(deps, req, res);
    if (!admitted) return;
    const { session, token, body } = admitted;
    const links = flowLinks(req, session, token);
    if (shopperStatus(session) === 'paid' && session.paymentId)
      return res.redirect(303, links.result(session.paymentId));
    const attemptId = typeof body.attempt === 'string' && attemptIdPattern.test(body.attempt) ? body.attempt : null;
    if (!attemptId)
      return renderCheckoutPage(deps, req, res, session, token, 400, {
        alert: 'The form was incomplete. Please try again.',
      });
    const parsed = session.total > 0 ? parseCardForm(body) : { card: null, errors: null };
    if (parsed.errors)
      return renderCheckoutPage(deps, req, res, session, token, 422, {
        errors: parsed.errors,
        values: redisplayedValues(body),
        alert: 'Please correct the card details below.',
      });
    let outcome;
    try {
      outcome = await payHostedSession(deps, {
        session,
        attemptId,
        card: parsed.card,
        clientIp: req.ip ?? null,
        origin: originOf(req),
        returnUrl: links.result(),
        ...browserInfoOf(req),
      });
    } catch (error) {
      if (isDomainError(error, 'INVALID_CARD_NUMBER') || isDomainError(error, 'CARD_EXPIRED'))
        return renderCheckoutPage(deps, req, res, session, token, 422, {
          values: redisplayedValues(body),
          alert: 'This card cannot be used: check the number and the expiry date.',
        });
      throw error;
    }
    if (outcome.kind === 'rejected') return answerRefusal(deps, req, res, session, token, outcome.error.code);
    if (outcome.status === 'requires_action')
      await returnChallengeToPage(deps.db, outcome.paymentId, links.result(outcome.paymentId));
    res.redirect(303, links.result(outcome.paymentId));
  });

  /**
   * Where every payment ends up, and where the browser comes back from the bank: the engine's 3-D
   * Secure return adds `threedsSessionId`, `status`, `paymentId` and `paymentStatus`, a processor's
   * step-up `paymentId` and `status`. Only the payment's id is read from the query, and only a
   * payment of this session; its state always comes from the engine's own records.
   */
  router.get('/:sessionId/result', async (req, res) => {
    const token = String(req.query.t ?? '');
    const session = await admitSession(deps, req, res, token);
    if (!session) return;
    const links = flowLinks(req, session, token);
    const named = [req.query.payment, req.query.paymentId].find((value) => typeof value === 'string' && value) as
      string | undefined;
    const payment =
      (named ? await findSessionPayment(deps.db, session.id, named.slice(0, 64)) : null) ??
      (session.paymentId ? await findSessionPayment(deps.db, session.id, session.paymentId) : null);
    if (!payment) return res.redirect(303, links.page());
    const language = shopperLanguage(session.locale, req.get('accept-language'));
    const common = {
      language,
      storeName: session.store.name,
      email: session.customer.email,
      total: formatAmount(payment.amount, payment.currency, language),
      successUrl: session.successUrl,
      cancelUrl: session.cancelUrl,
    };
    if (paidStatuses.has(payment.status)) {
      const orderId = payment.orderId ?? session.order?.id ?? null;
      // A funnel's checkout goes on to the funnel's next step (its offers), then to successUrl.
      const funnelUrl = session.funnelSessionId ? links.offer() : null;
      return sendPage(res, 200, 'result', { ...common, title: 'Payment received', kind: 'paid', orderId, funnelUrl });
    }
    if (payment.status === 'failed')
      return sendPage(res, 200, 'result', {
        ...common,
        title: 'Payment declined',
        kind: 'declined',
        reason: shopperDeclineReason(payment.declineCode),
        retryUrl: links.page(),
      });
    if (payment.status === 'requires_action' && payment.redirectUrl) {
      await returnChallengeToPage(deps.db, payment.id, links.result(payment.id));
      return sendPage(res, 200, 'result', {
        ...common,
        title: 'Confirm with your bank',
        kind: 'action',
        actionUrl: payment.redirectUrl,
      });
    }
    return sendPage(res, 200, 'result', {
      ...common,
      title: 'Payment processing',
      kind: 'processing',
      refreshSeconds: 2,
      refreshUrl: links.result(payment.id),
    });
  });
}

/** A payment refused before it started: said in the shopper's words, on the page that can fix it. */
async function answerRefusal(
  deps: AppDeps,
  req: Request,
  res: Response,
  session: HostedSession,
  token: string,
  code: string,
): Promise<void> {
  const fresh = await admitSession(deps, req, res, token);
  if (!fresh) return;
  if (code === 'CHECKOUT_ALREADY_PAID' && fresh.paymentId)
    return res.redirect(303, flowLinks(req, fresh, token).result(fresh.paymentId));
  const alert =
    code === 'CHECKOUT_PAYMENT_IN_PROGRESS'
      ? 'A payment of this order is already in progress. Wait a moment and reload this page before paying again.'
      : code === 'CHECKOUT_CHANGED'
        ? 'The order changed while you were paying. Check the total and pay again.'
        : 'The payment could not be started. Nothing was charged; please try again or contact the store.';
  await renderCheckoutPage(deps, req, res, session.id === fresh.id ? fresh : session, token, 409, { alert });
}

/** What the shopper's own request says of their browser (the page asks no script for more). */
function browserInfoOf(req: Request): { browserInfo?: BrowserInfo } {
  const userAgent = req.get('user-agent')?.slice(0, 512);
  const acceptHeader = req.get('accept')?.slice(0, 2048);
  if (!userAgent || !acceptHeader) return {};
  const language = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*/.exec(req.get('accept-language') ?? '')?.[0];
  return { browserInfo: { userAgent, acceptHeader, ...(language ? { language } : {}) } };
}
