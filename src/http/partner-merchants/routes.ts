import { createMerchant, crmKeysOf, listMerchants, mintCrmKey, revokeCrmKey } from '../../keys/merchants';
import { authOf } from '../auth/authenticate';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import {
  createCrmKeySchema,
  createdMerchantSchema,
  createMerchantSchema,
  crmKeyListSchema,
  crmKeySchema,
  merchantKeyParams,
  merchantListSchema,
  merchantParams,
  pageQuerySchema,
  toCrmKey,
  toMerchant,
} from './validators';

const basePath = '/api/public/v1/partner';
const tags = ['partner: merchants'];

/** CRM-side provisioning with a partner key: merchant accounts and their CRM keys. */
export function registerPartnerMerchantRoutes({ partnerPublicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    partnerPublicRouter,
    basePath,
    {
      method: 'post',
      path: '/merchants',
      summary: 'Creates a merchant account (201), or returns the one with the same externalRef (200, created: false)',
      description:
        'Creates a merchant account under the partner. Give an externalRef to make it safe to retry: the same externalRef answers the existing account (200, created: false).',
      tags,
      body: createMerchantSchema,
      example: { name: 'Demo Coffee Roasters', externalRef: 'merchant-4711', plan: 'premium' },
      response: createdMerchantSchema,
      otherResponseStatuses: [201],
    },
    async ({ body, req, res }) => {
      const { account, created } = await createMerchant(db, authOf(req).partnerId, body);
      if (created) res.status(201);
      return { ...toMerchant(account), created };
    },
  );

  defineRoute(
    partnerPublicRouter,
    basePath,
    {
      method: 'get',
      path: '/merchants',
      summary: "Lists the partner's merchant accounts, newest first",
      description: "The partner's merchant accounts, newest first, with page and pageSize.",
      tags,
      query: pageQuerySchema,
      response: merchantListSchema,
    },
    async ({ query, req }) => {
      const { rows, total } = await listMerchants(db, authOf(req).partnerId, query);
      return {
        data: rows.map(toMerchant),
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
    partnerPublicRouter,
    basePath,
    {
      method: 'post',
      path: '/merchants/:accountId/keys',
      summary: 'Mints a CRM key for a merchant account; the token is returned only here',
      description:
        "Mints a CRM key (sk_crm_…) for one of the partner's merchants, in a mode and role. The token is in this answer only: hand it to the merchant's integration.",
      tags,
      params: merchantParams,
      body: createCrmKeySchema,
      example: { name: 'production server', role: 'org:admin', mode: 'test' },
      response: crmKeySchema,
      status: 201,
    },
    async ({ params, body, req }) => {
      const { key, token } = await mintCrmKey(db, authOf(req), params.accountId, body);
      return toCrmKey(key, token);
    },
  );

  defineRoute(
    partnerPublicRouter,
    basePath,
    {
      method: 'get',
      path: '/merchants/:accountId/keys',
      summary: "Lists a merchant account's CRM keys (prefix only)",
      description: "A merchant's CRM keys with prefix, last 4, role, mode and status (never the token).",
      tags,
      params: merchantParams,
      response: crmKeyListSchema,
    },
    async ({ params, req }) => ({
      data: (await crmKeysOf(db, authOf(req), params.accountId)).map((key) => toCrmKey(key)),
    }),
  );

  defineRoute(
    partnerPublicRouter,
    basePath,
    {
      method: 'post',
      path: '/merchants/:accountId/keys/:keyId/revoke',
      summary: 'Revokes a CRM key, immediately and for good (idempotent)',
      description:
        'Revokes a CRM key: the next call with it answers 401. Rotate by minting the new key first, then revoking the old one.',
      tags,
      params: merchantKeyParams,
      response: crmKeySchema,
    },
    async ({ params, req }) => toCrmKey(await revokeCrmKey(db, authOf(req), params.accountId, params.keyId)),
  );
}
