import type { Request } from 'express';
import type { Scope } from '../../commerce/scope';
import { forbidden } from '../../errors';
import { refusedBeforeWork } from '../core/beforeWork';
import { authOf } from './authenticate';

export type { Scope };

/** The caller's commerce scope (account + mode); a key bound to no merchant account is refused before any work. */
export function scopeOf(req: Request): Scope {
  const auth = authOf(req);
  if (!auth.accountId)
    throw refusedBeforeWork(forbidden('This key is not bound to a merchant account', 'ACCOUNT_REQUIRED'));
  return { accountId: auth.accountId, mode: auth.mode };
}
