import { createHmac } from 'node:crypto';

/** Canonical JSON (object keys sorted) so the same body hashes the same whatever its key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What of a request its fingerprint covers: method, full path and body. */
export interface FingerprintedRequest {
  method: string;
  baseUrl: string;
  path: string;
  body?: unknown;
}

/** Deterministic under one key, so a repeat with the same body is recognised; not reversible without the key. */
export function requestHashOf(req: FingerprintedRequest, hashKey: Buffer): string {
  return createHmac('sha256', hashKey)
    .update(`${req.method} ${req.baseUrl}${req.path}\n${canonical(req.body ?? {})}`)
    .digest('hex');
}
