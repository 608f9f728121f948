import type { Request } from 'express';
import type { Tenant } from '../../events/tenant';
import { authOf } from '../auth/authenticate';
import { forbidden } from '../../errors';

/** The caller's tenant: events and webhook endpoints of other accounts and modes are 404. */
export function tenantOf(req: Request): Tenant {
  const auth = authOf(req);
  if (!auth.accountId) throw forbidden('This key is not bound to a merchant account', 'ACCOUNT_REQUIRED');
  return { accountId: auth.accountId, mode: auth.mode };
}
