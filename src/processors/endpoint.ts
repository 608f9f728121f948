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

/**
 * The hosts an `endpoint` may name: `PROCESSOR_ENDPOINT_ALLOW`, a comma-separated list of
 * `host[:port]` (an entry without a port allows every port of that host; IPv6 in brackets,
 * `[::1]:4010`). Default: loopback, where the simulators run.
 */
export const defaultProcessorEndpointAllow = '127.0.0.1,localhost,[::1]';

export interface EndpointAllowEntry {
  /** As the WHATWG URL parser writes a hostname: lower case, IPv4 dotted, IPv6 in brackets. */
  host: string;
  /** Undefined: any port. */
  port?: number;
}

/** The list parsed, or an Error naming the first entry that is not `host[:port]`. */
export function parseEndpointAllow(list: string): EndpointAllowEntry[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const bracketed = /^(\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/.exec(entry);
      const bareIpv6 = !bracketed && (entry.match(/:/g) ?? []).length > 1 ? [entry, `[${entry}]`] : null;
      const named = bracketed || bareIpv6 ? null : /^([A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry);
      const match = bracketed ?? bareIpv6 ?? named;
      const host = match ? canonicalHost(match[1]!) : undefined;
      const port = match?.[2] === undefined ? undefined : Number(match[2]);
      if (!host || (port !== undefined && (port < 1 || port > 65535)))
        throw new Error(`"${entry}" is not host[:port] (IPv6 in brackets: [::1]:4010)`);
      return port === undefined ? { host } : { host, port };
    });
}

function canonicalHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** Whether an endpoint origin names a host (and port) of the allow list. */
export function isEndpointAllowed(endpoint: string, allow: readonly EndpointAllowEntry[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return allow.some((entry) => entry.host === url.hostname && (entry.port === undefined || entry.port === port));
}
