import type { Request, Response } from 'express';
import type { CardFormErrors } from '../../checkout/hostedPage/cardForm';
import { newAttemptId } from '../../checkout/hostedPage/links';
import { pageView, shopperLanguage, type HostedSession } from '../../checkout/hostedPage/pageData';
import { sendPage } from '../../checkout/hostedPage/render';
import type { AppDeps } from '../core/context';
import { flowLinks, issueCsrf } from './access';

/** What a re-rendered form shows besides the session: inline errors, an alert, a promotion-code answer. */
export interface FormState {
  errors?: CardFormErrors;
  values?: { expiry: string; cardholderName: string };
  alert?: string;
  promotionCode?: string;
  promotionError?: string;
  promotionApplied?: string;
}

/** Renders the checkout page of an open session (a new attempt id each time: a new form is a new payment attempt). */
export async function renderCheckoutPage(
  deps: AppDeps,
  req: Request,
  res: Response,
  session: HostedSession,
  token: string,
  status = 200,
  state: FormState = {},
): Promise<void> {
  const language = shopperLanguage(session.locale, req.get('accept-language'));
  const view = await pageView(deps.db, session, language);
  const links = flowLinks(req, session, token);
  await sendPage(res, status, 'checkout', {
    ...view,
    title: `Pay ${view.storeName}`,
    token,
    csrf: issueCsrf(deps.config, req, res, session.id),
    attempt: newAttemptId(),
    payAction: links.pay,
    promotionAction: links.promotion,
    brand: '',
    errors: state.errors ?? {},
    values: state.values ?? { expiry: '', cardholderName: '' },
    alert: state.alert ?? null,
    promotionCode: state.promotionCode ?? '',
    promotionError: state.promotionError ?? null,
    promotionApplied: state.promotionApplied ?? null,
  });
}
