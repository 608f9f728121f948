import type { Config } from '../config';
import type { EventView } from '../events/serialize';
import type { UrlPolicy } from './urlGuard';

/** The JSON body a receiver gets: the event (the Event schema of /openapi.json) plus its webhook type. */
export function deliveryPayload(event: EventView, webhookType: string, mode: 'test' | 'live') {
  return { id: event.id, type: webhookType, mode, createdAt: event.createdAt, data: event };
}

/**
 * Test mode, or the operator's WEBHOOK_ALLOW_INSECURE_URLS, allows http receivers; loopback ones
 * also need the operator's WEBHOOK_ALLOW_LOOPBACK (unset: off; `npm start` turns it on outside production).
 */
export function deliveryPolicy(
  config: Pick<Config, 'WEBHOOK_ALLOW_INSECURE_URLS' | 'WEBHOOK_ALLOW_LOOPBACK'>,
  mode: 'test' | 'live',
): UrlPolicy {
  return {
    allowInsecure: mode === 'test' || config.WEBHOOK_ALLOW_INSECURE_URLS,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK === true,
  };
}

/** The secrets that sign now: the current one, plus the rotated-out one inside its overlap window. */
export function signingSecrets(
  endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const overlapping =
    endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return overlapping ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
