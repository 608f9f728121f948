import type { Request } from 'express';
import { scopeOf } from '../auth/scope';
import type { Routers } from '../routes';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { confirmLoginCode, requestLoginCode } from '../../portal/login';
import { createPortalLoginLimits } from '../../portal/loginLimits';
import { createWindowCounter } from '../rate-limit/stores';
import { createOfferLink, openOfferSession } from '../../portal/offers';
import { revokePortalSession } from '../../portal/session';
import { loadPortalSession, portalTokenHeader } from './session';
import {
  confirmRequestSchema,
  createOfferLinkRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  offerLinkResponseSchema,
  offerSessionRequestSchema,
  okResponseSchema,
  sessionResponseSchema,
} from './validators';

const cmsBasePath = '/api/v1';

/** The caller's address: X-Forwarded-For is believed only from a loopback proxy (app's `trust proxy`). */
const clientIpOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** Customer portal sessions: e-mail code login, logout, signed offer links. */
export function registerPortalSessionRoutes({ cmsRouter, publicRouter }: Routers, deps: AppDeps): void {
  const { db } = deps;
  // Counters in Redis when REDIS_URL is set (shared by every API process), else in this process.
  const limits = createPortalLoginLimits(
    deps.config,
    (name, windowMs) => createWindowCounter(deps.config.REDIS_URL, `ratelimit:portal:${name}:`, windowMs),
    deps.logger,
  );
  const loginDeps = { ...deps, limits };

  defineRoute(
    cmsRouter,
    cmsBasePath,
    {
      method: 'post',
      path: '/cms/session/login',
      summary: 'Sends a one-time login code to a customer e-mail',
      tags: ['portal'],
      security: 'none',
      body: loginRequestSchema,
      response: loginResponseSchema,
      errors: [404, 429, 503],
    },
    async ({ body, req }) => {
      const { loginId, expiresAt } = await requestLoginCode(loginDeps, { ...body, clientIp: clientIpOf(req) });
      return {
        loginId,
        expiresAt: expiresAt.toISOString(),
        message: 'If this e-mail belongs to a customer of the store, a code is on its way',
      };
    },
  );

  defineRoute(
    cmsRouter,
    cmsBasePath,
    {
      method: 'post',
      path: '/cms/session/confirm',
      summary: 'Exchanges a one-time code for an e-mail-verified session token',
      tags: ['portal'],
      security: 'none',
      body: confirmRequestSchema,
      response: sessionResponseSchema,
      errors: [401, 429],
    },
    async ({ body, req }) => confirmLoginCode(loginDeps, { ...body, clientIp: clientIpOf(req) }),
  );

  defineRoute(
    cmsRouter,
    cmsBasePath,
    {
      method: 'post',
      path: '/cms/session/logout',
      summary: 'Revokes the portal session of x-cms-token',
      tags: ['portal'],
      security: 'cmsToken',
      response: okResponseSchema,
    },
    async ({ req }) => {
      const session = await loadPortalSession(db, req.header(portalTokenHeader));
      await revokePortalSession(db, session.sessionId);
      return { ok: true as const };
    },
  );

  defineRoute(
    cmsRouter,
    cmsBasePath,
    {
      method: 'post',
      path: '/cms/session/offer',
      summary: 'Opens an anonymous store session limited to what a signed offer link allows',
      tags: ['portal'],
      security: 'none',
      body: offerSessionRequestSchema,
      response: sessionResponseSchema,
      errors: [401],
    },
    async ({ body }) => openOfferSession(deps, body.link),
  );

  defineRoute(
    publicRouter,
    '/api/public/v1',
    {
      method: 'post',
      path: '/portal/offer-links',
      summary: 'Signs an offer link that opens a limited anonymous portal session',
      description:
        'Signs a link a customer opens without signing in, to a limited portal session for one offer (e.g. in an e-mail).',
      tags: ['portal'],
      body: createOfferLinkRequestSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        customerId: 'cus_3HdP0sVb6YkR2wQe9LmT',
        actions: ['switch'],
        targetId: 'sub_8UjM3kIo6LpQ1wAz5SxE',
        expiresInMinutes: 1440,
      },
      response: offerLinkResponseSchema,
      secretFields: ['link'],
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => createOfferLink(deps, scopeOf(req), body),
  );
}
