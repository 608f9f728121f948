import type { Db } from '../../db/prisma';
import { processingKeyLabel, visibleModes, type Mode } from '../../domain/apiKeys';
import { newId } from '../../domain/ids';
import { mintApiKey, revokeApiKey } from '../../keys/mintKey';
import { assertCanActInMode } from '../../keys/modeGuard';
import { authOf } from '../auth/authenticate';
import type { AppDeps, AuthContext } from '../core/context';
import { badRequest, forbidden, notFound } from '../core/errors';
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

/** A processing account of the calling partner in a mode its key sees, or 404. */
async function findOwnTpa(db: Db, auth: AuthContext, tpaId: string) {
  const tpa = await db.processingAccount.findFirst({
    where: { id: tpaId, partnerId: auth.partnerId, mode: { in: visibleModes(auth.mode) } },
    include: { partner: true, account: true },
  });
  if (!tpa) throw notFound('Processing account');
  return tpa;
}

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
      body: createTpaSchema,
      response: tpaSchema,
      status: 201,
    },
    async ({ body, req }) => {
      const auth = authOf(req);
      const partner = await db.partner.findUniqueOrThrow({ where: { id: auth.partnerId } });
      if (partner.kind !== 'payfac') {
        throw forbidden(
          'Only full processing partners (payfac) can create processing accounts; this partner is CRM-only',
          'payfac_required',
        );
      }
      const mode: Mode = body.mode ?? auth.mode;
      assertCanActInMode(auth.mode, mode);
      const account = await db.account.findFirst({ where: { id: body.accountId, partnerId: auth.partnerId } });
      if (!account) throw notFound('Merchant account');
      const storeIds = [...new Set([...(body.storeId ? [body.storeId] : []), ...(body.storeIds ?? [])])];
      const stores = await db.store.findMany({
        where: { id: { in: storeIds }, accountId: account.id, mode },
        select: { id: true },
      });
      const found = new Set(stores.map((store) => store.id));
      const missing = storeIds.filter((id) => !found.has(id));
      if (missing.length) {
        throw badRequest(
          `Not ${mode}-mode stores of account ${account.id}: ${missing.join(', ')}`,
          'STORE_NOT_IN_ACCOUNT',
        );
      }
      const tpa = await db.processingAccount.create({
        data: {
          id: newId('processingAccount'),
          partnerId: auth.partnerId,
          accountId: account.id,
          storeIds,
          externalRef: body.externalRef ?? null,
          mode,
        },
      });
      return toTpa(tpa);
    },
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
      const auth = authOf(req);
      const where = { partnerId: auth.partnerId, mode: { in: visibleModes(auth.mode) } };
      const [rows, totalCount] = await Promise.all([
        db.processingAccount.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: (query.page - 1) * query.pageSize,
          take: query.pageSize,
        }),
        db.processingAccount.count({ where }),
      ]);
      return {
        data: rows.map(toTpa),
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
    async ({ params, req }) => toTpa(await findOwnTpa(db, authOf(req), params.tpaId)),
  );

  defineRoute(
    partnerProcessingRouter,
    basePath,
    {
      method: 'post',
      path: '/tpas/:tpaId/keys',
      summary: 'Mints a processing key; the secret is returned only here, the label is assigned automatically',
      tags,
      params: tpaParams,
      body: createProcessingKeySchema,
      response: processingKeySchema,
      status: 201,
    },
    async ({ params, body, req }) => {
      const auth = authOf(req);
      const tpa = await findOwnTpa(db, auth, params.tpaId);
      const mode = body.mode ?? tpa.mode;
      assertCanActInMode(auth.mode, mode);
      if (mode !== tpa.mode)
        throw badRequest(
          `Processing account ${tpa.id} is in ${tpa.mode} mode; its keys are ${tpa.mode} keys`,
          'MODE_MISMATCH',
        );
      const label = processingKeyLabel(tpa.partner.name, tpa.externalRef ?? tpa.account.externalRef, tpa.accountId);
      const { key, token } = await mintApiKey(db, {
        kind: 'processing',
        mode,
        name: label,
        partnerId: auth.partnerId,
        accountId: tpa.accountId,
        tpaId: tpa.id,
      });
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
    async ({ params, req }) => {
      const tpa = await findOwnTpa(db, authOf(req), params.tpaId);
      const keys = await db.apiKey.findMany({
        where: { tpaId: tpa.id, kind: 'processing' },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return { data: keys.map((key) => toProcessingKey(key)) };
    },
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
    async ({ params, req }) => {
      const tpa = await findOwnTpa(db, authOf(req), params.tpaId);
      const key = await revokeApiKey(db, { id: params.keyId, tpaId: tpa.id, kind: 'processing' });
      if (!key) throw notFound('Processing key');
      return toProcessingKey(key);
    },
  );
}
