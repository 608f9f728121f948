import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promisify } from 'node:util';

const lookupAll = promisify(dnsLookup);

/** Every address a host name resolves to; injectable so tests can play DNS answers. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: ResolveHost = (hostname) => lookupAll(hostname, { all: true, verbatim: true });

export interface UrlPolicy {
  /** Plain http is allowed, and loopback may be (test mode, or WEBHOOK_ALLOW_INSECURE_URLS). */
  allowInsecure: boolean;
  /** Loopback addresses are allowed where insecure URLs are: the operator's WEBHOOK_ALLOW_LOOPBACK. */
  allowLoopback: boolean;
}

/** The refusal of a loopback receiver the operator has not allowed (its own code: the fix is not the URL's form). */
export const loopbackNotAllowedCode = 'WEBHOOK_LOOPBACK_NOT_ALLOWED';

export class WebhookUrlError extends Error {
  constructor(
    message: string,
    readonly code: string = 'INVALID_WEBHOOK_URL',
  ) {
    super(message);
    this.name = 'WebhookUrlError';
  }
}

// Never reachable: private, link-local (cloud metadata 169.254.169.254 and fd00:ec2::254 fall in
// these), carrier-grade NAT, benchmarking, multicast, reserved and unspecified ranges.
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const blockedHostnames = new Set([
  'metadata.google.internal',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** The IPv4 address an IPv6 address embeds (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

interface AddressRefusal {
  reason: string;
  code?: string;
}

/** Why an IP address may not receive webhooks under the policy (and the refusal's code), or undefined when it may. */
function addressRefusal(address: string, policy: UrlPolicy): AddressRefusal | undefined {
  const family = isIP(address);
  if (family === 0) return { reason: 'not an IP address' };
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const type = v4 ? 'ipv4' : 'ipv6';
  const candidate = v4 ?? address;
  if (loopback.check(candidate, type)) {
    if (!policy.allowInsecure) return { reason: 'loopback addresses are only allowed in test mode' };
    if (!policy.allowLoopback)
      return {
        reason:
          'loopback receivers are turned off on this engine (its operator allows them with WEBHOOK_ALLOW_LOOPBACK=true); use a URL reachable from outside this machine',
        code: loopbackNotAllowedCode,
      };
    return undefined;
  }
  if (blocked.check(candidate, type))
    return { reason: 'private, link-local, metadata or reserved addresses are not allowed' };
  return undefined;
}

/** Why an IP address may not receive webhooks under the policy, or undefined when it may. */
export function blockedAddressReason(address: string, policy: UrlPolicy): string | undefined {
  return addressRefusal(address, policy)?.reason;
}

/** Parses a webhook URL and checks its scheme and form; DNS is checked by `assertWebhookUrlAllowed`. */
export function parseWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowInsecure && url.protocol === 'http:')) {
    throw new WebhookUrlError(policy.allowInsecure ? 'url must use http or https' : 'url must use https');
  }
  if (url.username || url.password) throw new WebhookUrlError('url must not carry credentials');
  const host = hostOf(url);
  if (!host) throw new WebhookUrlError('url has no host');
  if (blockedHostnames.has(host.toLowerCase().replace(/\.$/, '')))
    throw new WebhookUrlError('metadata hosts are not allowed');
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new WebhookUrlError(`url host ${host}: ${refusal.reason}`, refusal.code);
  }
  return url;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Checks scheme, form and every address the host resolves to (at create/update and before each delivery). */
export async function assertWebhookUrlAllowed(
  raw: string,
  policy: UrlPolicy,
  resolve: ResolveHost = systemResolve,
): Promise<URL> {
  const url = parseWebhookUrl(raw, policy);
  const host = hostOf(url);
  if (isIP(host)) return url;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new WebhookUrlError(`url host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new WebhookUrlError(`url host ${host} does not resolve`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new WebhookUrlError(`url host ${host} resolves to ${address}: ${refusal.reason}`, refusal.code);
  }
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that refuses blocked addresses at connection time, so a DNS
 * answer that changes between the check and the connection (rebinding) cannot reach them.
 */
export function guardedLookup(policy: UrlPolicy, resolve: ResolveHost = systemResolve) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    const answer = (addresses: LookupAddress[]) => {
      for (const { address } of addresses) {
        const reason = blockedAddressReason(address, policy);
        // An errno-style code, as http expects of a lookup error.
        if (reason)
          return callback(new WebhookUrlError(`${hostname} resolves to ${address}: ${reason}`, 'EBLOCKED'), '');
      }
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    };
    void resolve(hostname).then(answer, (error: NodeJS.ErrnoException) => callback(error, ''));
  };
}
