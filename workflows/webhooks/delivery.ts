import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { dispatch, webhookAttempt } from '../shared/activityOptions';

const { attemptWebhookDelivery } = proxyActivities<Activities>(webhookAttempt);

const { disableWebhookEndpoint, dispatchEvents } = proxyActivities<Activities>(dispatch);

export type WebhookDeliveryOutcome =
  | { status: 'delivered'; attempt: number; receiverStatus: number }
  | { status: 'endpoint_unavailable' }
  | { status: 'failed'; endpointDisabled: boolean; disabledEventId?: string };

/**
 * Delivers one event to one endpoint (workflow id `whd_<eventId>_<endpointId>`). Temporal's
 * activity retry policy is the retry loop; when it gives up (3 days) or the receiver answers
 * 410 Gone, the endpoint is disabled and `s_webhook_endpoint_disabled` is fanned out.
 */
export async function webhookDeliveryWorkflow(input: {
  eventId: string;
  endpointId: string;
}): Promise<WebhookDeliveryOutcome> {
  try {
    const result = await attemptWebhookDelivery(input);
    return { status: 'delivered', attempt: result.attempt, receiverStatus: result.status };
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const type = error.cause instanceof ApplicationFailure ? error.cause.type : undefined;
    if (type === 'WebhookEndpointUnavailable') return { status: 'endpoint_unavailable' };
    const reason = type === 'WebhookGone' ? 'gone' : 'failing';
    const disabled = await disableWebhookEndpoint({ endpointId: input.endpointId, eventId: input.eventId, reason });
    if (disabled.eventId) await dispatchEvents([disabled.eventId]);
    return {
      status: 'failed',
      endpointDisabled: disabled.disabled,
      ...(disabled.eventId ? { disabledEventId: disabled.eventId } : {}),
    };
  }
}
