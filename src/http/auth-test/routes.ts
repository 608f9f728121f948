import type { Request } from 'express';
import { readAccount } from '../../keys/lookup';
import { authOf } from '../auth/authenticate';
import type { AppDeps } from '../core/context';
import { forbidden } from '../../errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { authTestSchema } from './validators';

const publicBasePath = '/api/public/v1';
const processingBasePath = '/api/processing/v1';
const tags = ['auth'];

/** `GET /auth/test`: which account, key type and mode a key stands for. */
export function registerAuthTestRoutes({ publicRouter, processingRouter }: Routers, { db }: AppDeps): void {
  const describeKey = async (req: Request) => {
    const auth = authOf(req);
    if (!auth.accountId || (auth.kind !== 'crm' && auth.kind !== 'processing')) {
      throw forbidden('This key is not bound to a merchant account', 'ACCOUNT_REQUIRED');
    }
    const account = await readAccount(db, auth.accountId);
    return {
      ok: true as const,
      keyType: auth.kind,
      keyId: auth.keyId,
      mode: auth.mode,
      role: auth.role,
      account: { id: account.id, name: account.name, plan: account.plan },
      partnerId: auth.partnerId,
      ...(auth.tpaId ? { tpaId: auth.tpaId, storeIds: auth.storeIds ?? [] } : {}),
    };
  };
  defineRoute(
    publicRouter,
    publicBasePath,
    {
      method: 'get',
      path: '/auth/test',
      summary: 'Verifies a CRM key: its account, key type and mode',
      description:
        'Answers which account, key type, mode and role the key in Authorization belongs to. Use it to check a new or rotated CRM key before making real calls.',
      tags,
      response: authTestSchema,
    },
    ({ req }) => describeKey(req),
  );
  defineRoute(
    processingRouter,
    processingBasePath,
    {
      method: 'get',
      path: '/auth/test',
      summary: 'Verifies a processing key: its account, processing account, key type and mode',
      tags,
      response: authTestSchema,
    },
    ({ req }) => describeKey(req),
  );
}
