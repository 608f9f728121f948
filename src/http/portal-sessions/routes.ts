import type { Db } from '../../db/prisma';
import { newId } from '../../domain/ids';
import { scopeOf } from '../auth/scope';
import { normaliseEmail } from '../../commerce/customers';
import type { Routers } from '../routes';
import type { AppDeps } from '../core/context';
import { ApiError, notAuthorized, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { sendMail } from '../../portal/mailer';
import { signOfferLink, verifyOfferLink } from '../../portal/offerLinks';
import { loadPortalSession, portalTokenHeader } from './session';
import {
  hashLoginCode,
  hashSecret,
  mintPortalToken,
  newLoginCode,
  offerLinkSecret,
  sameHash,
} from '../../portal/tokens';
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
const maxCodeAttempts = 5;
const invalidCode = 'The code is wrong, expired or already used; request a new one';

async function openSession(
  db: Db,
  expiresAt: Date,
  data: {
    accountId: string;
    mode: 'test' | 'live';
    storeId: string;
    kind: 'customer' | 'offer';
    customerId: string | null;
    email?: string | null;
    emailVerified: boolean;
    allowedActions: string[];
    offerRef?: string | null;
  },
) {
  const token = mintPortalToken();
  await db.portalSession.create({
    data: { id: newId('portalSession'), tokenHash: hashSecret(token), expiresAt, ...data },
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    storeId: data.storeId,
    customerId: data.customerId,
    kind: data.kind,
    emailVerified: data.emailVerified,
    allowedActions: data.allowedActions,
  };
}

/** Customer portal sessions: e-mail code login, logout, signed offer links. */
export function registerPortalSessionRoutes({ cmsRouter, publicRouter }: Routers, deps: AppDeps): void {
  const { db, config } = deps;

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
      errors: [404, 503],
    },
    async ({ body }) => {
      const store = await db.store.findUnique({ where: { id: body.storeId } });
      if (!store) throw notFound('Store');
      if (store.mode === 'live' && !config.SMTP_URL) {
        throw new ApiError(
          503,
          'EMAIL_NOT_CONFIGURED',
          'Live-mode portal sign-in needs e-mail delivery (SMTP_URL) configured by the operator',
        );
      }
      const email = normaliseEmail(body.email);
      const customer = await db.customer.findFirst({
        where: { accountId: store.accountId, mode: store.mode, email, OR: [{ storeId: null }, { storeId: store.id }] },
        orderBy: { createdAt: 'asc' },
      });
      const code = newLoginCode();
      const loginId = newId('portalLoginCode');
      const expiresAt = new Date(Date.now() + config.PORTAL_LOGIN_CODE_TTL_MINUTES * 60_000);
      await db.portalLoginCode.create({
        data: {
          id: loginId,
          accountId: store.accountId,
          mode: store.mode,
          storeId: store.id,
          email,
          customerId: customer?.id ?? null,
          codeHash: hashLoginCode(loginId, code),
          expiresAt,
        },
      });
      if (customer) {
        await sendMail(deps, {
          mode: store.mode,
          to: email,
          subject: `Your ${store.name} sign-in code`,
          text: `Your sign-in code is ${code}. It expires in ${config.PORTAL_LOGIN_CODE_TTL_MINUTES} minutes.`,
          meta: { loginId, code, storeId: store.id },
        });
      }
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
      errors: [401],
    },
    async ({ body }) => {
      // Count the attempt first (conditional update), so guessing is capped even under concurrency.
      const counted = await db.portalLoginCode.updateMany({
        where: { id: body.loginId, consumedAt: null, attempts: { lt: maxCodeAttempts }, expiresAt: { gt: new Date() } },
        data: { attempts: { increment: 1 } },
      });
      if (counted.count !== 1) throw notAuthorized(invalidCode);
      const login = await db.portalLoginCode.findUniqueOrThrow({ where: { id: body.loginId } });
      if (!sameHash(login.codeHash, hashLoginCode(login.id, body.code)) || !login.customerId)
        throw notAuthorized(invalidCode);
      const consumed = await db.portalLoginCode.updateMany({
        where: { id: login.id, consumedAt: null },
        data: { consumedAt: new Date() },
      });
      if (consumed.count !== 1) throw notAuthorized(invalidCode);
      return openSession(db, new Date(Date.now() + config.PORTAL_SESSION_TTL_MINUTES * 60_000), {
        accountId: login.accountId,
        mode: login.mode,
        storeId: login.storeId,
        kind: 'customer',
        customerId: login.customerId,
        email: login.email,
        emailVerified: true,
        allowedActions: [],
      });
    },
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
      await db.portalSession.update({ where: { id: session.sessionId }, data: { revokedAt: new Date() } });
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
    async ({ body }) => {
      const payload = verifyOfferLink(body.link, offerLinkSecret(config), Date.now());
      if (!payload) throw notAuthorized('Offer link is not valid or has expired');
      // The session never outlives its link (nor the session TTL).
      const expiresAt = new Date(Math.min(Date.now() + config.PORTAL_SESSION_TTL_MINUTES * 60_000, payload.exp * 1000));
      return openSession(db, expiresAt, {
        accountId: payload.accountId,
        mode: payload.mode,
        storeId: payload.storeId,
        kind: 'offer',
        customerId: payload.customerId,
        emailVerified: false,
        allowedActions: payload.actions,
        offerRef: payload.targetId,
      });
    },
  );

  defineRoute(
    publicRouter,
    '/api/public/v1',
    {
      method: 'post',
      path: '/portal/offer-links',
      summary: 'Signs an offer link that opens a limited anonymous portal session',
      tags: ['portal'],
      body: createOfferLinkRequestSchema,
      response: offerLinkResponseSchema,
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const store = await db.store.findFirst({ where: { id: body.storeId, ...scope } });
      if (!store) throw notFound('Store');
      const customer = await db.customer.findFirst({ where: { id: body.customerId, ...scope } });
      if (!customer) throw notFound('Customer');
      if (body.targetId) {
        const [subscription, membership] = await Promise.all([
          db.subscription.findFirst({
            where: { id: body.targetId, ...scope, customerId: customer.id, storeId: store.id },
          }),
          db.membership.findFirst({
            where: { id: body.targetId, ...scope, customerId: customer.id, storeId: store.id },
          }),
        ]);
        if (!subscription && !membership) throw notFound('Subscription or membership');
      }
      const exp = Math.floor(Date.now() / 1000) + body.expiresInMinutes * 60;
      const link = signOfferLink(
        {
          accountId: scope.accountId,
          mode: scope.mode,
          storeId: store.id,
          customerId: customer.id,
          actions: body.actions,
          targetId: body.targetId ?? null,
          exp,
        },
        offerLinkSecret(config),
      );
      return { link, expiresAt: new Date(exp * 1000).toISOString() };
    },
  );
}
