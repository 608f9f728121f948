import type { Config } from '../../config';
import type { Db } from '../../db/prisma';

/**
 * Which hosts serve the hosted pages. The engine's own names (PUBLIC_BASE_URL's host, HOST, the
 * loopback names) serve every session; any other host serves a session only when it is a verified
 * custom domain of that session's store, in its mode. The Host header decides nothing else: the
 * link's signature, the session and its state are checked the same way on every host.
 */
export function engineHosts(config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST'>): Set<string> {
  const hosts = new Set(['localhost', '127.0.0.1', '::1', config.HOST.toLowerCase()]);
  if (config.PUBLIC_BASE_URL) hosts.add(new URL(config.PUBLIC_BASE_URL).hostname.toLowerCase());
  return hosts;
}

/** The host name of a request's Host header: lower case, no port, no brackets, no trailing dot. */
export function hostnameOf(hostHeader: string | undefined): string {
  const host = (hostHeader ?? '').trim().toLowerCase();
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return name.replace(/\.$/, '');
}

export async function hostServesSession(
  db: Db,
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST'>,
  hostname: string,
  session: { storeId: string; mode: 'test' | 'live' },
): Promise<boolean> {
  if (engineHosts(config).has(hostname)) return true;
  const domain = await db.customDomain.findFirst({
    where: { hostname, mode: session.mode, storeId: session.storeId, status: 'verified' },
    select: { id: true },
  });
  return domain !== null;
}

/** The verified custom domain of each store (one per store: the oldest verified), for the sessions' `url`. */
export async function verifiedDomainsOf(db: Db, storeIds: string[]): Promise<Map<string, string>> {
  if (storeIds.length === 0) return new Map();
  const domains = await db.customDomain.findMany({
    where: { storeId: { in: [...new Set(storeIds)] }, status: 'verified' },
    orderBy: [{ verifiedAt: 'asc' }, { id: 'asc' }],
    select: { storeId: true, hostname: true },
  });
  const byStore = new Map<string, string>();
  for (const domain of domains) if (!byStore.has(domain.storeId)) byStore.set(domain.storeId, domain.hostname);
  return byStore;
}
