import type { ProcessorEvent, ProcessorEventKind, ProcessorWebhooks, WebhookVerification } from '../types';
import { verifyNotification, type AdyenWebhookEvent } from './webhooks';

/**
 * Adyen's standard webhook as the engine's webhook route takes it: every item's HMAC checked with
 * the processor's `hmacKey` (webhooks.ts), then each item turned into an engine event. The engine
 * key of a modification comes back as `merchantReference` (the adapter sends it as `reference`).
 * REFUND_FAILED and REFUNDED_REVERSED are failed refunds whatever their `success` flag: Adyen sends
 * them with success "true" to say the failure is certain.
 */
function toProcessorEvent(event: AdyenWebhookEvent): ProcessorEvent {
  const base = {
    vendorEventId: event.eventId,
    vendorType: event.eventCode,
    paymentReference: event.paymentPspReference,
    operationReference: event.pspReference,
    amount: event.amount.value,
    currency: event.amount.currency,
    ...(event.reason ? { reason: event.reason } : {}),
  };
  const modification = (kind: ProcessorEventKind, succeeded: boolean): ProcessorEvent => ({
    ...base,
    kind,
    succeeded,
    engineKey: event.merchantReference,
  });
  switch (event.kind) {
    case 'capture':
      return modification('capture', event.success);
    case 'void':
      return modification('void', event.success);
    case 'refund':
      return modification('refund', event.success);
    case 'refund_failed':
      return modification('refund', false);
    case 'capture_failed':
      return { ...base, kind: 'capture_failed', succeeded: false };
    case 'dispute_opened':
      return { ...base, kind: 'dispute_opened', succeeded: event.success };
    // Adyen sends dispute outcomes with success "true"; any other is not an outcome to act on.
    case 'dispute_won':
    case 'dispute_lost':
      return { ...base, kind: event.success ? event.kind : 'ignored', succeeded: event.success };
    // A step-up payment's outcome (its metadata names the attempt): the waiting payment asks Adyen.
    case 'authorisation':
      if (!event.engineKey) return { ...base, kind: 'ignored', succeeded: event.success };
      return { ...base, kind: 'authorization', succeeded: event.success, engineKey: event.engineKey };
    default:
      // AUTHORISATION without the engine's key, CANCEL_OR_REFUND (engine reversals are settled by their own lookup),
      // NOTIFICATION_OF_CHARGEBACK, and every event code the engine does not act on.
      return { ...base, kind: 'ignored', succeeded: event.success };
  }
}

export const adyenWebhooks: ProcessorWebhooks = {
  verify({ rawBody, credentials, live }): WebhookVerification {
    const hmacKey = credentials.hmacKey;
    if (!hmacKey) return { ok: false, reason: 'no_secret', message: 'the processor has no hmacKey' };
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed', message: 'the body is not JSON' };
    }
    const verified = verifyNotification(body, hmacKey, live);
    if (verified.ok) return { ok: true, events: verified.events.map(toProcessorEvent) };
    if (verified.reason === 'malformed') return { ok: false, reason: 'malformed', message: verified.message };
    // A notification of the other environment is not for this processor, whatever its signature.
    return { ok: false, reason: 'bad_signature', message: verified.message };
  },
  acknowledgement: { notificationResponse: '[accepted]' },
};
