import { resolveTxt } from 'node:dns/promises';
import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { CustomDomain } from '../generated/prisma/client';
import type { Scope } from '../commerce/scope';
import { findStore } from '../commerce/stores';
import { normaliseHostname, txtRecordsMatch, verificationRecord } from '../domain/hostnames';
import { newId, randomBase62 } from '../domain/ids';
import { conflict, invalid, orNotFound, unavailable } from '../errors';

/** Reads the TXT records of a name: node's resolver by default, a fake in tests (no outside traffic). */
export type TxtResolver = (name: string) => Promise<string[][]>;
export const defaultTxtResolver: TxtResolver = (name) => resolveTxt(name);

export const domainStatuses = ['pending', 'verified', 'failed'] as const;

export const domainList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', hostname: 'hostname', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    storeId: { kind: 'id', prefix: 'store' },
    hostname: { kind: 'string' },
    status: { kind: 'enum', values: domainStatuses },
    createdAt: { kind: 'date' },
  },
};

/** DNS answers that mean "no such record" (a failed check), as opposed to a resolver that did not answer. */
const noRecordCodes = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * Registers a hostname for a store, pending until its TXT record is seen. One store per hostname
 * and mode: the unique index decides between concurrent registrations (409 DOMAIN_TAKEN).
 */
export async function createDomain(
  db: Db,
  scope: Scope,
  input: { storeId: string; hostname: string },
): Promise<CustomDomain> {
  const store = await findStore(db, scope, input.storeId);
  const hostname = normaliseHostname(input.hostname);
  if (!hostname)
    throw invalid('hostname must be a public hostname such as shop.example.com', 'INVALID_HOSTNAME', [
      { path: 'hostname', message: 'not a hostname' },
    ]);
  try {
    return await db.customDomain.create({
      data: { id: newId('customDomain'), ...scope, storeId: store.id, hostname, verificationToken: randomBase62(32) },
    });
  } catch (error) {
    if ((error as { code?: string } | null)?.code === 'P2002')
      throw conflict(`${hostname} is already registered to a store`, 'DOMAIN_TAKEN');
    throw error;
  }
}

export async function findDomain(db: Db, scope: Scope, domainId: string): Promise<CustomDomain> {
  return orNotFound(await db.customDomain.findFirst({ where: { id: domainId, ...scope } }), 'Domain');
}

export async function listDomains(db: Db, scope: Scope, query: ListQuery): Promise<Page<CustomDomain>> {
  const args = scopedPageArgs<Prisma.CustomDomainFindManyArgs>(scope, query);
  return readPage(db.customDomain.findMany(args), db.customDomain.count({ where: args.where }));
}

/**
 * Checks the domain's TXT record now: found → verified; absent or another value → failed (a
 * verified domain whose record was removed fails too). A resolver that does not answer leaves the
 * status as it was (unavailable: try again later).
 */
export async function verifyDomain(
  db: Db,
  scope: Scope,
  domainId: string,
  resolve: TxtResolver = defaultTxtResolver,
): Promise<CustomDomain> {
  const domain = await findDomain(db, scope, domainId);
  const record = verificationRecord(domain.hostname, domain.verificationToken);
  let records: string[][];
  try {
    records = await resolve(record.name);
  } catch (error) {
    const code = (error as { code?: string } | null)?.code ?? '';
    if (!noRecordCodes.has(code))
      throw unavailable(`DNS lookup of ${record.name} did not answer (${code || 'error'})`, 'DNS_LOOKUP_FAILED');
    records = [];
  }
  const now = new Date();
  const passed = txtRecordsMatch(records, record.value);
  return db.customDomain.update({
    where: { id: domain.id },
    data: passed
      ? { status: 'verified', lastError: null, lastCheckedAt: now, verifiedAt: domain.verifiedAt ?? now }
      : {
          status: 'failed',
          lastError:
            records.length === 0
              ? `No TXT record at ${record.name}`
              : `No TXT record at ${record.name} holds the token`,
          lastCheckedAt: now,
        },
  });
}

/** Removes a registration, releasing the hostname. */
export async function deleteDomain(db: Db, scope: Scope, domainId: string): Promise<CustomDomain> {
  const domain = await findDomain(db, scope, domainId);
  await db.customDomain.delete({ where: { id: domain.id } });
  return domain;
}

/** The `limit` domains checked longest ago (never checked first), of every account: the rechecker's round. */
export async function domainsToRecheck(db: Db, limit: number) {
  return db.customDomain.findMany({
    orderBy: [{ lastCheckedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
    take: limit,
    select: { id: true, accountId: true, mode: true },
  });
}
