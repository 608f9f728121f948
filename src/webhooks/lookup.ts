import type { Db } from '../db/prisma';
import { notFound } from '../errors';
import type { Tenant } from '../events/tenant';

/** A store of the caller's account and mode, or not_found. */
export async function assertStoreOfTenant(
  db: Db,
  tenant: Tenant,
  storeId: string,
): Promise<{ id: string; baseCurrency: string }> {
  const store = await db.store.findFirst({
    where: { id: storeId, ...tenant },
    select: { id: true, baseCurrency: true },
  });
  if (!store) throw notFound('Store');
  return store;
}

/** An endpoint of the caller's account and mode, or not_found. */
export async function findEndpoint(db: Db, tenant: Tenant, endpointId: string) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, ...tenant } });
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}
