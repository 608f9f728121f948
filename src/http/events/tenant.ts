import type { Request } from 'express';
import { authOf } from '../auth/authenticate';
import { forbidden } from '../core/errors';

export interface Tenant {
  accountId: string;
  mode: 'test' | 'live';
}

/** The account + mode events and webhook endpoints are scoped by; anything else is 404. */
export function tenantOf(req: Request): Tenant {
  const auth = authOf(req);
  if (!auth.accountId) throw forbidden('This key is not bound to a merchant account', 'ACCOUNT_REQUIRED');
  return { accountId: auth.accountId, mode: auth.mode };
}
