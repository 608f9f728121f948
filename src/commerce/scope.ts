import type { Request } from 'express';
import type { Mode } from '../domain/apiKeys';
import { authOf } from '../http/auth/authenticate';
import { refusedBeforeWork } from '../http/core/beforeWork';
import { forbidden } from '../errors';

export interface Scope {
  accountId: string;
  mode: Mode;
}

/** The account + mode every commerce row is filtered by; other accounts' and modes' rows do not exist (not_found). */
export function scopeOf(req: Request): Scope {
  const auth = authOf(req);
  if (!auth.accountId)
    throw refusedBeforeWork(forbidden('This key is not bound to a merchant account', 'ACCOUNT_REQUIRED'));
  return { accountId: auth.accountId, mode: auth.mode };
}
