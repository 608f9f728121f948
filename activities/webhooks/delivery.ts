import { statusClass, webhookDeliveries } from '../../src/metrics/metrics';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { webhookTypeOf } from '../../src/webhooks/catalogue';
import { deliveryPayload, deliveryPolicy, signingSecrets } from '../../src/webhooks/delivery';
import { disableEndpoint, loadDelivery, recordDeliveryAttempt } from '../../src/webhooks/deliveryRecords';
import { failingWindowMs, streakOf } from '../../src/webhooks/failureStreak';
import {
  attemptHeader,
  eventIdHeader,
  eventTypeHeader,
  signatureHeader,
  signWebhookPayload,
} from '../../src/webhooks/signing';
import { sendWebhookRequest } from '../../src/webhooks/send';
import { withOpenedSecrets } from '../../src/webhooks/endpointSecrets';
import { assertWebhookUrlAllowed, WebhookUrlError } from '../../src/webhooks/urlGuard';
import type { ActivityDeps } from '../deps';

/** Error types the delivery workflow reacts to (also its nonRetryableErrorTypes). */
export const webhookErrorTypes = {
  gone: 'WebhookGone',
  unavailable: 'WebhookEndpointUnavailable',
  /** Nothing reached the endpoint for 3 days straight. */
  failing: 'WebhookEndpointFailing',
  failed: 'WebhookDeliveryFailed',
} as const;

/** How long one HTTP attempt may take before it counts as failed (docs/webhooks.md: 10 s). */
export const attemptTimeoutMs = 10_000;

export function createWebhookActivities(deps: ActivityDeps) {
  return {
    /**
     * One HTTP attempt of one event to one endpoint, recorded whatever happens. Throws a
     * retryable failure on anything but 2xx so the activity retry policy drives the backoff;
     * 410 Gone and a deleted or disabled endpoint are not retried.
     */
    async attemptWebhookDelivery(input: {
      eventId: string;
      endpointId: string;
    }): Promise<{ status: number; attempt: number }> {
      const info = Context.current().info;
      const target = await loadDelivery(deps.db, input);
      if (target.missing === 'endpoint') {
        throw ApplicationFailure.nonRetryable(
          `endpoint ${input.endpointId} is deleted or disabled`,
          webhookErrorTypes.unavailable,
        );
      }
      if (target.missing === 'event')
        throw ApplicationFailure.nonRetryable(`event ${input.eventId} not found`, webhookErrorTypes.unavailable);
      const { endpoint, event, view } = target;
      const body = JSON.stringify(deliveryPayload(view, webhookTypeOf(event.eventType) ?? event.eventType, event.mode));
      const policy = deliveryPolicy(deps.config, endpoint.mode);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        [signatureHeader]: signWebhookPayload(
          body,
          signingSecrets(withOpenedSecrets(endpoint, deps.config), new Date()),
          timestamp,
        ),
        [eventIdHeader]: event.id,
        [eventTypeHeader]: webhookTypeOf(event.eventType) ?? event.eventType,
        [attemptHeader]: String(info.attempt),
      };
      let result;
      try {
        const url = await assertWebhookUrlAllowed(endpoint.url, policy);
        result = await sendWebhookRequest(url, body, headers, policy, attemptTimeoutMs);
      } catch (error) {
        if (!(error instanceof WebhookUrlError)) throw error;
        result = { latencyMs: 0, error: error.message };
      }
      const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
      // The engine's clock (skipped in time-skipping tests) decides how long an endpoint has failed:
      // a streak is measured between attempts' scheduled times (a retry is scheduled when the
      // previous attempt fails), so the attempt scheduled 3 days or more into it ends it.
      const now = new Date(info.currentAttemptScheduledTimestampMs);
      const streak = delivered ? null : streakOf(endpoint, now);
      await recordDeliveryAttempt(deps.db, endpoint, {
        eventId: event.id,
        workflowId: info.workflowExecution?.workflowId ?? 'unknown',
        attempt: info.attempt,
        delivered,
        result,
        at: now,
        streak,
      });
      webhookDeliveries.inc({
        outcome: delivered ? 'succeeded' : 'failed',
        endpoint_status: statusClass(result.status),
      });
      if (!streak) return { status: result.status!, attempt: info.attempt };
      const reason = result.error ?? `receiver answered HTTP ${result.status}`;
      if (result.status === 410) throw ApplicationFailure.nonRetryable(reason, webhookErrorTypes.gone);
      if (now.getTime() - streak.since.getTime() >= failingWindowMs) {
        throw ApplicationFailure.nonRetryable(
          `${reason}; failing since ${streak.since.toISOString()}`,
          webhookErrorTypes.failing,
        );
      }
      throw ApplicationFailure.retryable(reason, webhookErrorTypes.failed);
    },

    /**
     * Disables an endpoint that answered 410 or failed for 3 days straight (src/webhooks/deliveryRecords.ts).
     * When an event's retries run out but another event reached the endpoint meanwhile, it stays enabled.
     */
    async disableWebhookEndpoint(input: {
      endpointId: string;
      eventId: string;
      reason: 'gone' | 'failing';
    }): Promise<{ disabled: boolean; eventId?: string }> {
      const outcome = await disableEndpoint(
        deps.db,
        input,
        new Date(Context.current().info.currentAttemptScheduledTimestampMs),
      );
      if (outcome.disabled)
        deps.logger.warn({ endpointId: input.endpointId, reason: input.reason }, 'webhook endpoint disabled');
      return outcome;
    },
  };
}
