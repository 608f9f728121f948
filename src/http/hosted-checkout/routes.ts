import express, { type Express, type Request, type Response } from 'express';
import { shopperStatus } from '../../checkout/hostedPage/pageData';
import { applyPromotionCode } from '../../checkout/hostedPage/promotionCode';
import { sendNotice } from '../../checkout/hostedPage/render';
import { faviconSvg } from '../../checkout/hostedPage/styles';
import { isDomainError } from '../../errors';
import type { AppDeps } from '../core/context';
import { admitPost, admitSession, flowLinks } from './access';
import { renderCheckoutPage } from './checkoutPage';
import { registerHostedFunnelRoutes } from '../hosted-funnel/routes';
import { registerHostedPayRoutes } from './payRoutes';

/**
 * The hosted payment page, served by the engine under `/checkout/{sessionId}?t=…` (the session's
 * `url`). No API key: the signed link admits the shopper to that one session; form posts carry a
 * CSRF token bound to a SameSite=Strict cookie. Every answer is a page, never JSON or a stack trace.
 */
export function registerHostedCheckoutRoutes(app: Express, deps: AppDeps): void {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));

  router.get('/favicon.svg', (_req, res) => {
    res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400').send(faviconSvg);
  });

  router.get('/:sessionId', async (req, res) => {
    const token = String(req.query.t ?? '');
    const session = await admitSession(deps, req, res, token);
    if (!session) return;
    if (shopperStatus(session) === 'paid' && session.paymentId) {
      res.redirect(303, flowLinks(req, session, token).result(session.paymentId));
      return;
    }
    const applied = typeof req.query.applied === 'string' ? req.query.applied.slice(0, 64) : undefined;
    await renderCheckoutPage(deps, req, res, session, token, 200, { promotionApplied: applied });
  });

  router.post('/:sessionId/promotion-code', async (req, res) => {
    const admitted = await admitPost(deps, req, res);
    if (!admitted) return;
    const { session, token, body } = admitted;
    const typed = typeof body.promotionCode === 'string' ? body.promotionCode.trim().slice(0, 64) : '';
    if (!typed)
      return renderCheckoutPage(deps, req, res, session, token, 422, { promotionError: 'Enter a promotion code.' });
    try {
      const { code } = await applyPromotionCode(deps.db, session.id, typed);
      res.redirect(303, flowLinks(req, session, token).page({ applied: code }));
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const message = promotionRefusal(error.code);
      return renderCheckoutPage(deps, req, res, session, token, 422, { promotionCode: typed, promotionError: message });
    }
  });

  registerHostedPayRoutes(router, deps);
  registerHostedFunnelRoutes(router, deps);

  router.use((req: Request, res: Response) =>
    sendNotice(res, 404, { heading: 'Page not found', message: 'There is no payment page at this address.' }),
  );
  router.use(async (error: unknown, req: Request, res: Response, _next: express.NextFunction) => {
    req.log?.error({ err: error }, 'hosted checkout page failed');
    if (res.headersSent) return;
    await sendNotice(res, 500, {
      heading: 'Something went wrong',
      message:
        'The page could not be shown. Nothing was charged twice: reload the page to see where your payment stands.',
    });
  });
  app.use('/checkout', router);
}

function promotionRefusal(code: string): string {
  switch (code) {
    case 'PROMOTION_CODE_INVALID':
      return 'This promotion code does not exist for this store.';
    case 'PROMOTION_CODE_INACTIVE':
      return 'This promotion code is no longer active.';
    case 'PROMOTION_CODE_LIMIT_REACHED':
      return 'This promotion code has been used up.';
    case 'PROMOTION_CODE_FIRST_TIME_ONLY':
      return 'This promotion code is for first orders only.';
    case 'CHECKOUT_PAYMENT_IN_PROGRESS':
      return 'A payment of this order is in progress; codes cannot be added now.';
    default:
      return 'This promotion code cannot be used on this order.';
  }
}
