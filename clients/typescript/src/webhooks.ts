import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/api';

/** The header that carries `t=<unix seconds>,v1=<hex>[,v1=<hex>]` on every delivery. */
export const webhookSignatureHeader = 'x-webhook-signature';

/** What a delivery's body holds: the event as `POST /events/recent` shows it, under `data`. */
export interface WebhookEvent {
  id: string;
  /** The webhook type, e.g. `order/paid` or `payment/refunded`. */
  type: string;
  mode: 'test' | 'live';
  createdAt: string;
  data: components['schemas']['Event'];
}

export interface VerifyWebhookOptions {
  /** How far (seconds, either way) the signature's timestamp may be from now; default 300. */
  toleranceSeconds?: number;
  /** Now in unix seconds (default: the clock). */
  now?: number;
}

export type VerifyWebhookResult =
  | { valid: true; timestamp: number; event: WebhookEvent }
  | { valid: false; reason: 'malformed' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

const defaultToleranceSeconds = 300;

/**
 * Checks a delivery the engine sent. `rawBody` is the request body exactly as received (verify
 * before any JSON parsing: re-serialised JSON does not match), `header` the `x-webhook-signature`
 * value and `secret` the endpoint's `whsec_…`. Valid when one `v1=` entry is the HMAC-SHA256 of
 * `<t>.<rawBody>` under the secret (two entries while a rotated secret overlaps) and `t` is within
 * the tolerance of now, which refuses replays of captured requests.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): VerifyWebhookResult {
  const value = typeof header === 'string' ? header : header?.length === 1 ? header[0] : undefined;
  const parsed = value ? parseSignatureHeader(value) : undefined;
  if (!parsed) return { valid: false, reason: 'malformed' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.timestamp) > (options.toleranceSeconds ?? defaultToleranceSeconds))
    return { valid: false, reason: 'timestamp_out_of_tolerance' };
  const expected = createHmac('sha256', secret).update(`${parsed.timestamp}.`).update(rawBody).digest();
  // Every entry is compared (no early exit), each in constant time.
  const matched = parsed.signatures.reduce((found, signature) => timingSafeEqual(signature, expected) || found, false);
  if (!matched) return { valid: false, reason: 'no_matching_signature' };
  try {
    const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    return { valid: true, timestamp: parsed.timestamp, event: JSON.parse(text) as WebhookEvent };
  } catch {
    return { valid: false, reason: 'malformed' };
  }
}

function parseSignatureHeader(value: string): { timestamp: number; signatures: Buffer[] } | undefined {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const entry of value.split(',')) {
    const separator = entry.indexOf('=');
    const key = entry.slice(0, separator).trim();
    const field = entry.slice(separator + 1).trim();
    if (separator < 0) continue;
    if (key === 't' && /^\d+$/.test(field)) timestamp = Number(field);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(field)) signatures.push(Buffer.from(field, 'hex'));
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}
