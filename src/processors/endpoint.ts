import { z } from 'zod';

/**
 * `credentials.endpoint` (test mode only; the processors service refuses it in live mode): an
 * origin that replaces the scheme, host and port of the vendor's API base URL, paths unchanged.
 * Contract tests and staging point adapters at simulators with it.
 */
export const endpointSchema = z
  .string()
  .max(2048)
  .refine(isOrigin, { message: 'endpoint must be an http(s) origin: scheme, host and optional port, no path' });

function isOrigin(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password
  );
}

/** The vendor's base URL with scheme, host and port taken from `endpoint`; no trailing slash. */
export function withEndpoint(baseUrl: string, endpoint: string | undefined): string {
  const url = new URL(baseUrl);
  if (endpoint) {
    const target = new URL(endpoint);
    url.protocol = target.protocol;
    url.hostname = target.hostname;
    url.port = target.port;
  }
  return url.toString().replace(/\/+$/, '');
}
