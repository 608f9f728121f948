import type { Db, Prisma } from '../db/prisma';
import { orNotFound } from '../errors';
import type { Scope } from './scope';

/** A store of the caller's account and mode, or not_found (other accounts' stores do not exist). */
export async function findStoreOfScope(db: Db | Prisma.TransactionClient, scope: Scope, storeId: string) {
  return orNotFound(await db.store.findFirst({ where: { id: storeId, ...scope } }), 'Store');
}
