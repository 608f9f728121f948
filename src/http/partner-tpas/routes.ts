import {
  createProcessingAccount,
  findProcessingAccount,
  listProcessingAccounts,
  mintProcessingKey,
  processingKeysOf,
  revokeProcessingKey,
} from '../../keys/processingAccounts';
import { authOf } from '../auth/authenticate';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { pageQuerySchema } from '../partner-merchants/validators';
import type { Routers } from '../routes';
import {
  createProcessingKeySchema,
  createTpaSchema,
  processingKeyListSchema,
  processingKeySchema,
  toProcessingKey,
  toTpa,
  tpaKeyParams,
  tpaListSchema,
  tpaParams,
  tpaSchema,
} from './validators';

const basePath = '/api/processing/v1/partner';
const tags = ['partner: processing accounts'];

/** Processing-side provisioning with a partner key: processing accounts and their keys. */
export function registerPartnerTpaRoutes({ partnerProcessingRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    partnerProcessingRouter,
    basePath,
    {
      method: 'post',
      path: '/tpas',
      summary: 'Creates a processing account for a merchant account and its store(s); full processing partners only',
      tags,
      partnerKind: 'payfac',
      body: createTpaSchema,
      response: tpaSchema,
      status: 201,
    },
    async ({ body, req }) => toTpa(await createProcessingAccount(db, authOf(req), body)),
  );

  defineRoute(
    partnerProcessingRouter,
    basePath,
    {
      method: 'get',
      path: '/tpas',
      summary: "Lists the partner's processing accounts, newest first",
      tags,
      query: pageQuerySchema,
      response: tpaListSchema,
    },
    async ({ query, req }) => {
      const { rows, total } = await listProcessingAccounts(db, authOf(req), query);
      return {
        data: rows.map(toTpa),
        pagination: {
          page: query.page,
          pageSize: query.pageSize,
          totalCount: total,
          totalPages: Math.ceil(total / query.pageSize),
        },
      };
    },
  );

  defineRoute(
    partnerProcessingRouter,
    basePath,
    {
      method: 'get',
      path: '/tpas/:tpaId',
      summary: 'Retrieves a processing account',
      tags,
      params: tpaParams,
      response: tpaSchema,
    },
    async ({ params, req }) => toTpa(await findProcessingAccount(db, authOf(req), params.tpaId)),
  );

  defineRoute(
    partnerProcessingRouter,
    basePath,
    {
      method: 'post',
      path: '/tpas/:tpaId/keys',
      summary: 'Mints a processing key; the secret is returned only here, the label is assigned automatically',
      tags,
      partnerKind: 'payfac',
      params: tpaParams,
      body: createProcessingKeySchema,
      response: processingKeySchema,
      status: 201,
    },
    async ({ params, body, req }) => {
      const { key, token } = await mintProcessingKey(db, authOf(req), params.tpaId, body);
      return toProcessingKey(key, token);
    },
  );

  defineRoute(
    partnerProcessingRouter,
    basePath,
    {
      method: 'get',
      path: '/tpas/:tpaId/keys',
      summary: "Lists a processing account's keys (prefix only)",
      tags,
      params: tpaParams,
      response: processingKeyListSchema,
    },
    async ({ params, req }) => ({
      data: (await processingKeysOf(db, authOf(req), params.tpaId)).map((key) => toProcessingKey(key)),
    }),
  );

  defineRoute(
    partnerProcessingRouter,
    basePath,
    {
      method: 'post',
      path: '/tpas/:tpaId/keys/:keyId/revoke',
      summary: 'Revokes a processing key, immediately and for good (idempotent)',
      tags,
      params: tpaKeyParams,
      response: processingKeySchema,
    },
    async ({ params, req }) => toProcessingKey(await revokeProcessingKey(db, authOf(req), params.tpaId, params.keyId)),
  );
}
