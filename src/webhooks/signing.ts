import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Header carrying `t=<unix seconds>,v1=<hex>` (one `v1=` per active secret during rotation). */
export const signatureHeader = 'x-webhook-signature';
export const eventIdHeader = 'x-webhook-event-id';
export const eventTypeHeader = 'x-webhook-event-type';
export const attemptHeader = 'x-webhook-attempt';

/** A new endpoint signing secret: `whsec_` + 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function hmacHex(secret: string, timestamp: number, payload: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
}

/** The signature header for a body signed at `timestamp` (unix seconds) by every given secret. */
export function signWebhookPayload(payload: string, secrets: string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmacHex(secret, timestamp, payload)}`)].join(',');
}

export interface VerifyOptions {
  /** Oldest (and most future) accepted timestamp distance from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now in unix seconds (default: the clock); for tests. */
  now?: number;
}

export type VerifyResult =
  | { valid: true; timestamp: number }
  | { valid: false; reason: 'malformed' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

/**
 * Verifies a webhook the engine sent: `payload` is the raw request body exactly as received,
 * `header` the `x-webhook-signature` value, `secret` the endpoint's `whsec_…`. Passes when any
 * `v1=` matches (there are two while a rotated secret overlaps) and the timestamp is within
 * tolerance of now, which stops replays of old captured requests.
 */
export function verifyWebhookSignature(
  payload: string | Buffer,
  header: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  if (!header) return { valid: false, reason: 'malformed' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return { valid: false, reason: 'malformed' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300))
    return { valid: false, reason: 'timestamp_out_of_tolerance' };
  const expected = Buffer.from(hmacHex(secret, timestamp, payload.toString()), 'hex');
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'no_matching_signature' };
}
