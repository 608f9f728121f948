import type { Db } from '../../db/prisma';
import { visibleModes } from '../../domain/apiKeys';
import { newId } from '../../domain/ids';
import { mintApiKey, revokeApiKey } from '../../keys/mintKey';
import { assertCanActInMode } from '../../keys/modeGuard';
import { authOf } from '../auth/authenticate';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
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

/** A merchant account of the calling partner, or 404 (another partner's accounts do not exist for it). */
async function findOwnMerchant(db: Db, partnerId: string, accountId: string) {
  const account = await db.account.findFirst({ where: { id: accountId, partnerId } });
  if (!account) throw notFound('Merchant account');
  return account;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'P2002';
}

/** CRM-side provisioning with a partner key: merchant accounts and their CRM keys. */
export function registerPartnerMerchantRoutes({ partnerPublicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    partnerPublicRouter,
    basePath,
    {
      method: 'post',
      path: '/merchants',
      summary: 'Creates a merchant account (201), or returns the one with the same externalRef (200, created: false)',
      tags,
      body: createMerchantSchema,
      response: createdMerchantSchema,
      otherResponseStatuses: [201],
    },
    async ({ body, req, res }) => {
      const { partnerId } = authOf(req);
      const replay = async () => {
        if (!body.externalRef) return null;
        const existing = await db.account.findUnique({
          where: { partnerId_externalRef: { partnerId, externalRef: body.externalRef } },
        });
        return existing ? { ...toMerchant(existing), created: false } : null;
      };
      const existing = await replay();
      if (existing) return existing;
      try {
        const account = await db.account.create({
          data: {
            id: newId('account'),
            partnerId,
            name: body.name,
            externalRef: body.externalRef ?? null,
            plan: body.plan,
          },
        });
        res.status(201);
        return { ...toMerchant(account), created: true };
      } catch (error) {
        // Two concurrent creations with one externalRef: the unique index lets one win, the other replays.
        const raced = isUniqueViolation(error) ? await replay() : null;
        if (raced) return raced;
        throw error;
      }
    },
  );

  defineRoute(
    partnerPublicRouter,
    basePath,
    {
      method: 'get',
      path: '/merchants',
      summary: "Lists the partner's merchant accounts, newest first",
      tags,
      query: pageQuerySchema,
      response: merchantListSchema,
    },
    async ({ query, req }) => {
      const where = { partnerId: authOf(req).partnerId };
      const [rows, totalCount] = await Promise.all([
        db.account.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: (query.page - 1) * query.pageSize,
          take: query.pageSize,
        }),
        db.account.count({ where }),
      ]);
      return {
        data: rows.map(toMerchant),
        pagination: {
          page: query.page,
          pageSize: query.pageSize,
          totalCount,
          totalPages: Math.ceil(totalCount / query.pageSize),
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
      tags,
      params: merchantParams,
      body: createCrmKeySchema,
      response: crmKeySchema,
      status: 201,
    },
    async ({ params, body, req }) => {
      const auth = authOf(req);
      const mode = body.mode ?? auth.mode;
      assertCanActInMode(auth.mode, mode);
      const account = await findOwnMerchant(db, auth.partnerId, params.accountId);
      const { key, token } = await mintApiKey(db, {
        kind: 'crm',
        mode,
        role: body.role,
        name: body.name,
        partnerId: auth.partnerId,
        accountId: account.id,
      });
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
      tags,
      params: merchantParams,
      response: crmKeyListSchema,
    },
    async ({ params, req }) => {
      const auth = authOf(req);
      const account = await findOwnMerchant(db, auth.partnerId, params.accountId);
      const keys = await db.apiKey.findMany({
        where: { accountId: account.id, kind: 'crm', mode: { in: visibleModes(auth.mode) } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return { data: keys.map((key) => toCrmKey(key)) };
    },
  );

  defineRoute(
    partnerPublicRouter,
    basePath,
    {
      method: 'post',
      path: '/merchants/:accountId/keys/:keyId/revoke',
      summary: 'Revokes a CRM key, immediately and for good (idempotent)',
      tags,
      params: merchantKeyParams,
      response: crmKeySchema,
    },
    async ({ params, req }) => {
      const auth = authOf(req);
      const account = await findOwnMerchant(db, auth.partnerId, params.accountId);
      const key = await revokeApiKey(db, {
        id: params.keyId,
        accountId: account.id,
        kind: 'crm',
        mode: { in: visibleModes(auth.mode) },
      });
      if (!key) throw notFound('CRM key');
      return toCrmKey(key);
    },
  );
}
