import { scopeOf } from '../auth/scope';
import { createSession } from '../../threeds/sessions';
import { findSessionOfScope } from '../../threeds/service';
import { statusForTransStatus } from '../../threeds/rules';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { registerThreeDsAuthenticationRoutes, threeDsEventDispatch } from './authRoutes';
import { toPublicThreeDsSession } from './present';
import { registerThreeDsReturnRoutes } from './returnRoutes';
import { createFromValuesSchema, sessionParams, threeDsSessionSchema } from './validators';

const basePath = '/api/public/v1';
const tags = ['3ds'];

/** The 3DS resource group: create-from-values, authenticate, create-merchant-session, get, and the challenge return. */
export function registerThreeDsRoutes(routers: Routers, deps: AppDeps): void {
  const { publicRouter } = routers;
  const { db } = deps;
  const dispatch = threeDsEventDispatch(deps);
  registerThreeDsAuthenticationRoutes(routers, deps);
  registerThreeDsReturnRoutes(routers, deps);
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/threeds/create-from-values',
      summary: 'Registers externally produced 3DS values as a session (Y/A: authenticated; N/U/R/I: stored as failed)',
      description:
        'Registers 3-D Secure values from your own 3DS server as a session, so a payment can carry them (threedsSessionId).',
      tags,
      adminOnly: true,
      body: createFromValuesSchema,
      example: {
        eci: '05',
        authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
        transStatus: 'Y',
        dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
        messageVersion: '2.2.0',
        type: 'customer',
      },
      response: threeDsSessionSchema,
    },
    async ({ body, req }) => {
      const status = statusForTransStatus(body.transStatus);
      const session = await createSession(
        db,
        {
          ...scopeOf(req),
          type: body.type,
          status,
          source: 'values',
          eci: body.eci,
          authenticationValue: body.authenticationValue,
          transStatus: body.transStatus,
          dsTransID: body.dsTransID ?? null,
          acsTransID: body.acsTransID ?? null,
          threeDSServerTransID: body.threeDSServerTransID ?? null,
          messageVersion: body.messageVersion,
          cardBrand: body.cardBrand ?? null,
          failureReason: status === 'failed' ? `transStatus ${body.transStatus}` : null,
        },
        { dispatch },
      );
      return toPublicThreeDsSession(session);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/threeds/:id',
      summary: 'Retrieves a 3DS session',
      description: 'One 3DS session with its status and authentication result.',
      tags,
      params: sessionParams,
      response: threeDsSessionSchema,
    },
    async ({ params, req }) => toPublicThreeDsSession(await findSessionOfScope(db, scopeOf(req), params.id)),
  );
}
