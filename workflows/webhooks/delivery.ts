import { ActivityFailure, ApplicationFailure, proxyActivities, type RetryPolicy } from '@temporalio/workflow';
import type { Activities } from '../../activities';

/**
 * The retry schedule of one delivery: 1 min, 2, 4, … doubling up to every 6 hours (about 20
 * attempts over 3 days). Each attempt has 10 s for the HTTP call (15 s for the whole activity).
 * The attempt that finds the endpoint failing for 3 days straight stops the retries; the
 * 4-day window only ends deliveries to a flaky endpoint whose streak keeps restarting.
 */
export const webhookRetryPolicy: RetryPolicy = {
  initialInterval: '1 minute',
  backoffCoefficient: 2,
  maximumInterval: '6 hours',
  nonRetryableErrorTypes: ['WebhookGone', 'WebhookEndpointUnavailable', 'WebhookEndpointFailing'],
};
export const webhookRetryWindow = '4 days';

const { attemptWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  scheduleToCloseTimeout: webhookRetryWindow,
  retry: webhookRetryPolicy,
});

const { disableWebhookEndpoint, dispatchEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});

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
