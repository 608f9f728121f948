import type { Request } from 'express';
import type { Db } from '../../db/prisma';
import { findAccountRef } from '../../iam/accounts';
import { enforce, type AccountRef, type Decision, type Grants } from '../../iam/policies';
import { iamOf } from './session';

/** The accounts a request's path named, each read once: the authorize step looks it up, the handler reuses it. */
const accountsOf = new WeakMap<Request, Map<string, Promise<AccountRef>>>();

/** The account `accountId` as the policies see it (404 when missing), read at most once per request. */
export function accountOf(db: Db, req: Request, accountId: string): Promise<AccountRef> {
  let accounts = accountsOf.get(req);
  if (!accounts) accountsOf.set(req, (accounts = new Map()));
  let account = accounts.get(accountId);
  if (!account) accounts.set(accountId, (account = findAccountRef(db, accountId)));
  return account;
}

/**
 * An `authorize` step for `/accounts/{accountId}/…` routes: the caller's right to act on the account
 * under `policy`, decided before the query and body are read (an outsider: 404; too small a role: 403).
 */
export function authorizeAccount<P extends { accountId: string }>(
  db: Db,
  policy: (grants: Grants, account: AccountRef, params: P) => Decision,
) {
  return async ({ params, req }: { params: P; req: Request }): Promise<void> =>
    enforce(policy(iamOf(req).grants, await accountOf(db, req, params.accountId), params));
}
