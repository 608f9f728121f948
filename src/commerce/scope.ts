import type { Request } from 'express';
import type { Mode } from '../domain/apiKeys';
import { authOf } from '../http/auth/authenticate';
import { forbidden } from '../http/core/errors';

export interface Scope {
  accountId: string;
  mode: Mode;
}

/** The account + mode every commerce row is filtered by; other accounts' and modes' rows are 404. */
export function scopeOf(req: Request): Scope {
  const auth = authOf(req);
  if (!auth.accountId) throw forbidden('This key is not bound to a merchant account', 'ACCOUNT_REQUIRED');
  return { accountId: auth.accountId, mode: auth.mode };
}
