import type { Db } from '../db/prisma';
import { orNotFound } from '../errors';
import type { AccountRef } from './policies';

/**
 * The account as the policies see it (its id and its partner); a missing one answers 404 like one
 * the caller may not see (canViewAccount), so the answer never tells which it was.
 */
export async function findAccountRef(db: Db, accountId: string): Promise<AccountRef> {
  return orNotFound(
    await db.account.findUnique({ where: { id: accountId }, select: { id: true, partnerId: true } }),
    'Account',
  );
}
