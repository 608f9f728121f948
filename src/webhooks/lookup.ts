import type { Db } from '../db/prisma';
import { orNotFound } from '../errors';
import type { Tenant } from '../events/tenant';

/** A store of the caller's account and mode, or not_found. */
export async function assertStoreOfTenant(
  db: Db,
  tenant: Tenant,
  storeId: string,
): Promise<{ id: string; baseCurrency: string }> {
  return orNotFound(
    await db.store.findFirst({
      where: { id: storeId, ...tenant },
      select: { id: true, baseCurrency: true },
    }),
    'Store',
  );
}

/** An endpoint of the caller's account and mode, or not_found. */
export async function findEndpoint(db: Db, tenant: Tenant, endpointId: string) {
  return orNotFound(await db.webhookEndpoint.findFirst({ where: { id: endpointId, ...tenant } }), 'Webhook endpoint');
}
