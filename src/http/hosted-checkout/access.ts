import type { Request, Response } from 'express';
import type { Config } from '../../config';
import type { Db } from '../../db/prisma';
import {
  checkLinkToken,
  csrfCookieName,
  csrfToken,
  flowUrl,
  isValidCsrf,
  newCsrfNonce,
} from '../../checkout/hostedPage/links';
import { hostnameOf, hostServesSession } from '../../checkout/hostedPage/hosts';
import { loadHostedSession, shopperStatus, type HostedSession } from '../../checkout/hostedPage/pageData';
import { sendNotice } from '../../checkout/hostedPage/render';
import { baseUrlSeenBy } from '../../threeds/returnLink';

export const sessionIdPattern = /^ch_[A-Za-z0-9]{1,64}$/;

/** The origin the shopper's browser is on (the engine's, or a store's verified domain). */
export function originOf(req: Request): string {
  return baseUrlSeenBy(req) ?? '';
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/**
 * The session a page is for, admitted by its signed link (`t` in the query or the form). Answers
 * the shopper's page itself and returns null when there is nothing to show: an unknown session or
 * a link that was not signed for it (404), an expired link or session (410, with the way back to
 * the store when the merchant gave one).
 */
export async function admitSession(
  deps: { db: Db; config: Config },
  req: Request,
  res: Response,
  token: unknown,
): Promise<HostedSession | null> {
  const sessionId = String(req.params.sessionId ?? '');
  const found = sessionIdPattern.test(sessionId) ? await loadHostedSession(deps.db, sessionId) : null;
  // On a custom domain, only that store's sessions exist; an unverified or foreign host shows none.
  const session =
    found && (await hostServesSession(deps.db, deps.config, hostnameOf(req.get('host')), found)) ? found : null;
  const check = session ? checkLinkToken(deps.config, session.id, token) : 'invalid';
  if (!session || check === 'invalid') {
    await sendNotice(res, 404, {
      heading: 'Payment page not found',
      message: 'This payment link is not valid. Use the link the store gave you, or ask the store for a new one.',
    });
    return null;
  }
  if (check === 'expired' || shopperStatus(session) === 'expired') {
    await sendNotice(res, 410, {
      heading: 'This payment link has expired',
      message: 'Nothing was charged. Return to the store to start again.',
      linkUrl: session.cancelUrl,
      linkText: `Return to ${session.store.name}`,
    });
    return null;
  }
  return session;
}

/** The CSRF nonce of this browser (set as a SameSite=Strict, HttpOnly cookie when it has none yet) and the form field for it. */
export function issueCsrf(config: Config, req: Request, res: Response, sessionId: string): string {
  let nonce = cookieValue(req, csrfCookieName);
  if (!nonce || !/^[A-Za-z0-9_-]{24}$/.test(nonce)) {
    nonce = newCsrfNonce();
    res.cookie(csrfCookieName, nonce, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.protocol === 'https',
      path: '/checkout',
    });
  }
  return csrfToken(config, sessionId, nonce);
}

/**
 * A form post of this session's page: the cookie's nonce must match the signed field, and a
 * browser that says where the post came from must say this origin.
 */
export function isSameSitePost(config: Config, req: Request, sessionId: string): boolean {
  const origin = req.get('origin');
  if (origin !== undefined && origin !== 'null' && origin !== originOf(req)) return false;
  const body = (req.body ?? {}) as Record<string, unknown>;
  return isValidCsrf(config, sessionId, cookieValue(req, csrfCookieName), body.csrf);
}

export async function refuseCrossSitePost(res: Response): Promise<void> {
  await sendNotice(res, 403, {
    heading: 'Please try again',
    message:
      'This form could not be accepted: it was sent from another site or the page was too old. Reload the payment page and try again.',
  });
}

/**
 * A form post of a session's page: admitted by the link in its `t` field and sent from the page
 * itself (CSRF). Answers the shopper's page itself and returns null when it is neither.
 */
export async function admitPost(
  deps: { db: Db; config: Config },
  req: Request,
  res: Response,
): Promise<{ session: HostedSession; token: string; body: Record<string, unknown> } | null> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const token = String(body.t ?? '');
  const session = await admitSession(deps, req, res, token);
  if (!session) return null;
  if (!isSameSitePost(deps.config, req, session.id)) {
    await refuseCrossSitePost(res);
    return null;
  }
  return { session, token, body };
}

/** Links of the session's flow on the shopper's origin. */
export function flowLinks(req: Request, session: { id: string }, token: string) {
  const origin = originOf(req);
  return {
    page: (params: Record<string, string> = {}) => flowUrl(origin, session.id, token, '', params),
    result: (paymentId?: string) =>
      flowUrl(origin, session.id, token, '/result', paymentId ? { payment: paymentId } : {}),
    pay: `/checkout/${session.id}/pay`,
    promotion: `/checkout/${session.id}/promotion-code`,
    offer: (params: Record<string, string> = {}) => flowUrl(origin, session.id, token, '/offer', params),
    answer: `/checkout/${session.id}/offer/answer`,
  };
}
