import { scopeOf } from '../auth/scope';
import { dispatchAfterCommit } from '../../events/afterCommit';
import type { Prisma } from '../../db/prisma';
import { baseUrlSeenBy } from '../../threeds/returnLink';
import { createSession, findSession } from '../../threeds/sessions';
import type { AppDeps } from '../core/context';
import { conflict, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { findStore } from '../../commerce/stores';
import { toPublicThreeDsSession } from './present';
import { runAuthentication } from '../../threeds/client';
import { authenticateSchema, createMerchantSessionSchema, threeDsSessionSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['3ds'];

/** 3DS events are dispatched right after their commit; a failure is left to the outbox sweep. */
export function threeDsEventDispatch(deps: AppDeps) {
  return dispatchAfterCommit({ db: deps.db, temporal: deps.temporal, taskQueue: deps.taskQueue }, (error) =>
    deps.logger.warn({ err: error }, '3DS event dispatch after commit failed; the outbox sweep will deliver'),
  );
}

export function registerThreeDsAuthenticationRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const { db } = deps;
  const dispatch = threeDsEventDispatch(deps);

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/threeds/authenticate',
      summary:
        'Authenticates a card with the 3DS server (durable workflow): the frictionless result, or a challenge to send the cardholder to',
      tags,
      adminOnly: true,
      body: authenticateSchema,
      response: threeDsSessionSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const store = body.storeId ? await findStore(db, scope, body.storeId) : null;
      let session;
      if (body.sessionId) {
        session = await findSession(db, scope, body.sessionId);
        if (!session) throw notFound('3DS session');
        if (session.status !== 'pending')
          throw conflict(
            `3DS session ${session.id} is ${session.status}; only a pending session can be authenticated`,
            'THREEDS_SESSION_NOT_PENDING',
          );
      } else {
        const instrument = await db.paymentInstrument.findFirst({ where: { id: body.paymentInstrumentId!, ...scope } });
        if (!instrument) throw notFound('Payment instrument');
        session = await createSession(
          db,
          {
            ...scope,
            type: 'customer',
            status: 'pending',
            source: 'authenticate',
            storeId: store?.id ?? null,
            customerId: instrument.customerId,
            paymentInstrumentId: instrument.id,
            authenticationType: body.authenticationType,
            recurringInfo: (body.recurringInfo as Prisma.InputJsonObject | undefined) ?? null,
            returnUrl: body.returnUrl ?? null,
          },
          { dispatch },
        );
      }
      const decided = await runAuthentication(deps, session, {
        returnBaseUrl: baseUrlSeenBy(req),
        amount: body.purchaseInfo.amount,
        currency: body.purchaseInfo.currency,
        deviceChannel: session.type === 'merchant' ? '3ri' : 'browser',
        challengePreference: body.challengePreference ?? null,
        merchant: (body.processorConfig as Record<string, string> | undefined) ?? null,
        cardholder: body.cardholderInfo ?? null,
      });
      return toPublicThreeDsSession(decided);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/threeds/create-merchant-session',
      summary:
        'Creates a merchant-initiated (3RI) session for a stored card: no browser, no challenge; pair it with initiatedBy merchant',
      tags,
      adminOnly: true,
      body: createMerchantSessionSchema,
      response: threeDsSessionSchema,
      errors: [404],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const store = await findStore(db, scope, body.storeId);
      const instrument = await db.paymentInstrument.findFirst({ where: { id: body.paymentInstrumentId, ...scope } });
      if (!instrument) throw notFound('Payment instrument');
      const session = await createSession(
        db,
        {
          ...scope,
          type: 'merchant',
          status: 'pending',
          source: 'merchant_session',
          storeId: store.id,
          customerId: instrument.customerId,
          paymentInstrumentId: instrument.id,
          authenticationType: 'recurring-transaction',
          tokenId: body.tokenId,
        },
        { dispatch },
      );
      // 3RI authenticates without an amount shown to anyone; the scheme-level request carries 0.
      const decided = await runAuthentication(deps, session, {
        amount: 0,
        currency: store.baseCurrency,
        deviceChannel: '3ri',
      });
      return toPublicThreeDsSession(decided);
    },
  );
}
