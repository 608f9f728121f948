import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ProcessorEvent, ProcessorEventKind, ProcessorWebhooks, WebhookVerification } from '../types';

/**
 * Adyen standard webhooks (Webhooks-v1): a batch of notification items, each signed with
 * HMAC-SHA256 over `pspReference:originalReference:merchantAccountCode:merchantReference:value:
 * currency:eventCode:success` (absent values empty) with the hex HMAC key of the webhook, base64 in
 * `additionalData.hmacSignature`. Pure: the simulator builds and signs with it; the engine's
 * webhook route verifies and parses with it. Acknowledge a batch with any 2xx (Adyen retries others).
 */
export interface AdyenAmountValue {
  value: number;
  currency: string;
}

export interface AdyenNotificationItem {
  pspReference: string;
  originalReference?: string;
  merchantAccountCode: string;
  merchantReference: string;
  eventCode: string;
  eventDate: string;
  success: 'true' | 'false';
  amount: AdyenAmountValue;
  reason?: string;
  paymentMethod?: string;
  operations?: string[];
  /** `metadata` is the document's nested form of the payment's metadata (engineKeyOf). */
  additionalData?: Record<string, string | Record<string, string>>;
}

export interface AdyenNotification {
  live: 'true' | 'false';
  notificationItems: { NotificationRequestItem: AdyenNotificationItem }[];
}

type SignedFields = Pick<
  AdyenNotificationItem,
  | 'pspReference'
  | 'originalReference'
  | 'merchantAccountCode'
  | 'merchantReference'
  | 'amount'
  | 'eventCode'
  | 'success'
>;

export function notificationSigningString(item: SignedFields): string {
  return [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
}

export function signNotificationItem(item: SignedFields, hmacKeyHex: string): string {
  return createHmac('sha256', Buffer.from(hmacKeyHex, 'hex'))
    .update(notificationSigningString(item), 'utf8')
    .digest('base64');
}

/** A batch as Adyen sends it, each item signed (the simulator's sender). */
export function buildNotification(
  items: AdyenNotificationItem[],
  live: boolean,
  hmacKeyHex: string,
): AdyenNotification {
  return {
    live: live ? 'true' : 'false',
    notificationItems: items.map((item) => ({
      NotificationRequestItem: {
        ...item,
        additionalData: { ...item.additionalData, hmacSignature: signNotificationItem(item, hmacKeyHex) },
      },
    })),
  };
}

/** What an event means for the engine; every other event code is `unhandled` (acknowledged, ignored). */
const eventKinds = {
  AUTHORISATION: 'authorisation',
  CAPTURE: 'capture',
  CAPTURE_FAILED: 'capture_failed',
  CANCELLATION: 'void',
  TECHNICAL_CANCEL: 'void',
  CANCEL_OR_REFUND: 'reversal',
  REFUND: 'refund',
  REFUND_FAILED: 'refund_failed',
  REFUNDED_REVERSED: 'refund_failed',
  NOTIFICATION_OF_CHARGEBACK: 'dispute_notice',
  CHARGEBACK: 'dispute_opened',
  CHARGEBACK_REVERSED: 'dispute_won',
  SECOND_CHARGEBACK: 'dispute_lost',
} as const;
export type AdyenEventKind = (typeof eventKinds)[keyof typeof eventKinds] | 'unhandled';

export interface AdyenWebhookEvent {
  /** Stable across Adyen's retries of the same event: the engine's dedupe key. */
  eventId: string;
  kind: AdyenEventKind;
  eventCode: string;
  success: boolean;
  /** The payment's pspReference (a modification names it in originalReference). */
  paymentPspReference: string;
  /** The modification's own pspReference, as the capture/cancel/refund answer gave it. */
  pspReference: string;
  merchantAccount: string;
  /** The reference sent with the payment or modification (the engine's key for a modification). */
  merchantReference: string;
  amount: AdyenAmountValue;
  reason?: string;
  eventDate: string;
  /** The engine's key the payment carried in its metadata (step-up payments only). */
  engineKey?: string;
}

export type VerifiedNotification =
  | { ok: true; live: boolean; events: AdyenWebhookEvent[] }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'wrong_environment'; message: string };

const itemSchema = z.object({
  pspReference: z.string().min(1),
  originalReference: z.string().optional(),
  merchantAccountCode: z.string(),
  merchantReference: z.string(),
  eventCode: z.string().min(1),
  eventDate: z.string(),
  success: z.enum(['true', 'false']),
  amount: z.object({ value: z.number().int(), currency: z.string().length(3) }),
  reason: z.string().optional(),
  additionalData: z.record(z.string(), z.unknown()).optional(),
});
const notificationSchema = z.object({
  live: z.enum(['true', 'false']),
  notificationItems: z.array(z.object({ NotificationRequestItem: itemSchema })).min(1),
});

/**
 * Verifies every item of a batch (one bad signature refuses the batch) and parses it. `expectLive`
 * refuses a test notification on a live processor and the reverse.
 */
export function verifyNotification(body: unknown, hmacKeyHex: string, expectLive?: boolean): VerifiedNotification {
  const parsed = notificationSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: 'malformed', message: 'not an Adyen notification batch' };
  const live = parsed.data.live === 'true';
  if (expectLive !== undefined && live !== expectLive)
    return { ok: false, reason: 'wrong_environment', message: `a ${live ? 'live' : 'test'} notification` };
  const events: AdyenWebhookEvent[] = [];
  for (const { NotificationRequestItem: item } of parsed.data.notificationItems) {
    const signature = item.additionalData?.hmacSignature;
    if (typeof signature !== 'string' || !signatureMatches(item, signature, hmacKeyHex))
      return { ok: false, reason: 'bad_signature', message: `item ${item.pspReference} is not signed with this key` };
    events.push(toEvent(item));
  }
  return { ok: true, live, events };
}

function signatureMatches(item: z.infer<typeof itemSchema>, signature: string, hmacKeyHex: string): boolean {
  const expected = Buffer.from(signNotificationItem(item, hmacKeyHex), 'base64');
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function toEvent(item: z.infer<typeof itemSchema>): AdyenWebhookEvent {
  const kind: AdyenEventKind = Object.hasOwn(eventKinds, item.eventCode)
    ? eventKinds[item.eventCode as keyof typeof eventKinds]
    : 'unhandled';
  const engineKey = engineKeyOf(item.additionalData);
  return {
    eventId: `${item.eventCode}:${item.pspReference}:${item.success}`,
    kind,
    eventCode: item.eventCode,
    success: item.success === 'true',
    paymentPspReference: item.originalReference || item.pspReference,
    pspReference: item.pspReference,
    merchantAccount: item.merchantAccountCode,
    merchantReference: item.merchantReference,
    amount: item.amount,
    ...(item.reason ? { reason: item.reason } : {}),
    eventDate: item.eventDate,
    ...(engineKey ? { engineKey } : {}),
  };
}

/**
 * The payment's `metadata.engineKey`: Adyen's prose sends metadata flat (`metadata.myField`), its
 * Webhooks-v1 document as a nested `metadata` object; either is read.
 */
function engineKeyOf(additionalData: Record<string, unknown> | undefined): string | undefined {
  const flat = additionalData?.['metadata.engineKey'];
  const nested = additionalData?.metadata;
  const value =
    flat ?? (typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>).engineKey : undefined);
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * Adyen's standard webhook as the engine's webhook route takes it: every item's HMAC checked with
 * the processor's `hmacKey` (verifyNotification above), then each item turned into an engine
 * event. The engine key of a modification comes back as `merchantReference` (the adapter sends it
 * as `reference`).
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
