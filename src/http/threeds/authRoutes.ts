import { scopeOf } from '../auth/scope';
import { dispatchAfterCommit } from '../../events/afterCommit';
import { runAuthentication } from '../../threeds/client';
import { threeDsProviderOfStore } from '../../threeds/provider';
import { baseUrlSeenBy } from '../../threeds/returnLink';
import { createMerchantSession, findSessionOfScope, sessionToAuthenticate } from '../../threeds/service';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { toPublicThreeDsSession } from './present';
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
      description:
        'Runs 3-D Secure for a card before paying: answers a frictionless result, or a challenge URL to send the cardholder to. Pass the session id (threedsSessionId) to the payment.',
      tags,
      adminOnly: true,
      body: authenticateSchema,
      example: {
        paymentInstrumentId: 'pi_7GtN4cXz1RqW8eLp5VyB',
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        purchaseInfo: { amount: 2500, currency: 'EUR' },
        cardholderInfo: { name: 'Ada Lovelace', email: 'ada@example.com' },
        challengePreference: 'no-preference',
        returnUrl: 'https://shop.example.com/3ds-done',
      },
      response: threeDsSessionSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const existing = body.sessionId ? await findSessionOfScope(db, scope, body.sessionId) : null;
      const providerProcessorId = await threeDsProviderOfStore(
        db,
        scope,
        body.storeId ?? existing?.storeId ?? undefined,
      );
      const session = await sessionToAuthenticate(db, scope, { ...body, providerProcessorId }, dispatch);
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
      description:
        'Creates a 3DS session for a merchant-initiated payment of a stored card (3RI: no browser, no challenge). Use it with initiatedBy merchant.',
      tags,
      adminOnly: true,
      body: createMerchantSessionSchema,
      example: {
        tokenId: 'tok_3ri_5f2c9a',
        paymentInstrumentId: 'pi_7GtN4cXz1RqW8eLp5VyB',
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
      },
      response: threeDsSessionSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const providerProcessorId = await threeDsProviderOfStore(db, scope, body.storeId);
      const { session, store } = await createMerchantSession(db, scope, { ...body, providerProcessorId }, dispatch);
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
