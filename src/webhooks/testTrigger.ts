import { dispatchEventsNow, type DispatchDeps } from '../events/dispatch';
import { recordEvent } from '../events/recordEvent';
import { sampleProperties } from '../events/samples';
import type { Tenant } from '../events/tenant';
import { recordTypeOf, type WebhookEventType } from './catalogue';
import { assertStoreOfTenant } from './lookup';

/**
 * Test mode: records a sample event of a webhook type for one of the tenant's stores and sends it
 * to the store's subscribed endpoints at once; answers the event and the delivery workflows.
 */
export async function triggerSampleEvent(
  deps: DispatchDeps,
  tenant: Tenant,
  input: { storeId: string; eventType: WebhookEventType },
) {
  const store = await assertStoreOfTenant(deps.db, tenant, input.storeId);
  const event = await recordEvent(deps.db, {
    ...tenant,
    storeId: input.storeId,
    eventType: recordTypeOf(input.eventType)!,
    properties: sampleProperties(input.eventType, store),
  });
  const { workflowIds } = await dispatchEventsNow(deps, [event.id]);
  return { eventId: event.id, workflowIds };
}
