import type { Db } from '../db/prisma';
import { randomBase62 } from '../domain/ids';
import { conflict, notFound } from '../errors';
import { deliveryWorkflowId, startDeliveryWorkflow, type DispatchDeps } from '../events/dispatch';
import type { Tenant } from '../events/tenant';
import { findEndpoint } from './lookup';

/** Delivery attempts to one of the tenant's endpoints, newest first. */
export async function attemptsOfEndpoint(db: Db, tenant: Tenant, endpointId: string, limit: number) {
  const endpoint = await findEndpoint(db, tenant, endpointId);
  return db.webhookDeliveryAttempt.findMany({
    where: { endpointId: endpoint.id },
    orderBy: [{ createdAt: 'desc' }, { attempt: 'desc' }],
    take: limit,
  });
}

/**
 * Delivers an event of the tenant (of the endpoint's store, or of none) to an enabled endpoint
 * again, as a new delivery workflow with its own retries; answers that workflow's id.
 */
export async function redeliverEvent(deps: DispatchDeps, tenant: Tenant, endpointId: string, eventId: string) {
  const { db } = deps;
  const endpoint = await findEndpoint(db, tenant, endpointId);
  const event = await db.event.findFirst({ where: { id: eventId, ...tenant } });
  if (!event || (event.storeId && event.storeId !== endpoint.storeId)) throw notFound('Event');
  if (!endpoint.enabled)
    throw conflict('The endpoint is disabled; enable it before redelivering', 'WEBHOOK_ENDPOINT_DISABLED');
  const workflowId = `${deliveryWorkflowId(event.id, endpoint.id)}_manual_${randomBase62(8)}`;
  await startDeliveryWorkflow(
    deps,
    { eventId: event.id, endpointId: endpoint.id, accountId: event.accountId, storeId: event.storeId },
    workflowId,
  );
  return { eventId: event.id, endpointId: endpoint.id, workflowId };
}
