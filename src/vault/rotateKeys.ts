import type { Db } from '../db/prisma';
import { openEndpointSecret, sealEndpointSecret } from '../webhooks/endpointSecrets';
import { decryptPan, encryptPan, panFingerprint } from './cardVault';
import { keyring, type KeySource } from './keyring';
import { openSecret, sealSecret, SecretBoxError } from './secretBox';

/**
 * `admin -- rotate-keys`: rewrites every secret at rest that is not sealed under the current
 * master key (a previous key, or a format before key ids) to the current one, in batches of rows
 * ordered by id. Each row is rewritten by a conditional update (only if it still holds the blob
 * read), so a concurrent writer is never clobbered; rows already on the current key are never
 * selected, so killing the command and running it again goes on where it stopped.
 */
export type RotatedTable = 'paymentInstruments' | 'processors' | 'webhookEndpoints';

export interface TableCounts {
  /** Rows rewritten to the current key. */
  rotated: number;
  /** Rows whose blob changed between the read and the write (a concurrent writer already sealed it anew). */
  changedConcurrently: number;
  /** Rows no configured key opens: left as they are, listed for the operator. */
  unreadable: string[];
}

export interface RotationReport {
  keyId: string;
  batchSize: number;
  tables: Record<RotatedTable, TableCounts>;
}

export interface RotationOptions {
  batchSize?: number;
  /** Called after each batch (progress on stderr for the command). */
  onBatch?: (table: RotatedTable, counts: TableCounts) => void | Promise<void>;
}

export type RowOutcome = 'rotated' | 'changedConcurrently' | 'unreadable';

interface Rotator<Row extends { id: string }> {
  /** The next rows after `afterId` not sealed under the key id, by id. */
  next(db: Db, afterId: string, keyPrefix: string, take: number): Promise<Row[]>;
  /** Re-seals one row under the current key, only if it still holds what was read. */
  rewrite(db: Db, row: Row, source: KeySource): Promise<RowOutcome>;
}

type CardRow = { id: string; encryptedPan: string };
type ProcessorRow = { id: string; encryptedCredentials: string };
type EndpointRow = { id: string; secret: string; previousSecret: string | null };

const cards: Rotator<CardRow> = {
  next: (db, afterId, keyPrefix, take) =>
    db.paymentInstrument.findMany({
      where: { id: { gt: afterId }, NOT: { encryptedPan: { startsWith: keyPrefix } } },
      select: { id: true, encryptedPan: true },
      orderBy: { id: 'asc' },
      take,
    }),
  async rewrite(db, row, source) {
    const pan = opened(() => decryptPan(row.encryptedPan, row.id, source));
    if (pan === undefined) return 'unreadable';
    // The fingerprint's key follows the master key: recomputed with the blob, it stays comparable across rows.
    const changed = await db.$executeRaw`
      UPDATE payment_instruments SET encrypted_pan = ${encryptPan(pan, row.id, source)},
             fingerprint = ${panFingerprint(pan, source)}
       WHERE id = ${row.id} AND encrypted_pan = ${row.encryptedPan}`;
    return changed === 1 ? 'rotated' : 'changedConcurrently';
  },
};

const processors: Rotator<ProcessorRow> = {
  next: (db, afterId, keyPrefix, take) =>
    db.processor.findMany({
      where: { id: { gt: afterId }, NOT: { encryptedCredentials: { startsWith: keyPrefix } } },
      select: { id: true, encryptedCredentials: true },
      orderBy: { id: 'asc' },
      take,
    }),
  async rewrite(db, row, source) {
    const binding = { purpose: 'processor-credentials', owner: row.id } as const;
    const credentials = opened(() => openSecret(row.encryptedCredentials, binding, source));
    if (credentials === undefined) return 'unreadable';
    const changed = await db.$executeRaw`
      UPDATE processors SET encrypted_credentials = ${sealSecret(credentials, binding, source)}
       WHERE id = ${row.id} AND encrypted_credentials = ${row.encryptedCredentials}`;
    return changed === 1 ? 'rotated' : 'changedConcurrently';
  },
};

const webhookEndpoints: Rotator<EndpointRow> = {
  next: (db, afterId, keyPrefix, take) =>
    db.webhookEndpoint.findMany({
      where: {
        id: { gt: afterId },
        OR: [
          { NOT: { secret: { startsWith: keyPrefix } } },
          { previousSecret: { not: null }, NOT: { previousSecret: { startsWith: keyPrefix } } },
        ],
      },
      select: { id: true, secret: true, previousSecret: true },
      orderBy: { id: 'asc' },
      take,
    }),
  async rewrite(db, row, source) {
    const reseal = (stored: string) => sealEndpointSecret(openEndpointSecret(stored, row.id, source), row.id, source);
    const secrets = opened(() => ({
      secret: reseal(row.secret),
      previousSecret: row.previousSecret === null ? null : reseal(row.previousSecret),
    }));
    if (secrets === undefined) return 'unreadable';
    const changed = await db.$executeRaw`
      UPDATE webhook_endpoints SET secret = ${secrets.secret}, previous_secret = ${secrets.previousSecret}
       WHERE id = ${row.id} AND secret = ${row.secret} AND previous_secret IS NOT DISTINCT FROM ${row.previousSecret}`;
    return changed === 1 ? 'rotated' : 'changedConcurrently';
  },
};

export const rotators = { paymentInstruments: cards, processors, webhookEndpoints };

export async function rotateKeys(db: Db, source: KeySource, options: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = options.batchSize ?? 200;
  const keyId = keyring(source).current.id;
  const report: RotationReport = { keyId, batchSize, tables: {} as RotationReport['tables'] };
  for (const table of Object.keys(rotators) as RotatedTable[]) {
    const counts: TableCounts = { rotated: 0, changedConcurrently: 0, unreadable: [] };
    report.tables[table] = counts;
    const rotator = rotators[table] as Rotator<{ id: string }>;
    let afterId = '';
    for (;;) {
      const rows = await rotator.next(db, afterId, `v2:${keyId}:`, batchSize);
      if (rows.length === 0) break;
      for (const row of rows) {
        const outcome = await rotator.rewrite(db, row, source);
        if (outcome === 'unreadable') counts.unreadable.push(row.id);
        else counts[outcome] += 1;
      }
      afterId = rows[rows.length - 1]!.id;
      await options.onBatch?.(table, counts);
    }
  }
  return report;
}

/** The value, or undefined when no configured key opens the blob (the command lists the row, never the blob). */
function opened<T>(open: () => T): T | undefined {
  try {
    return open();
  } catch (error) {
    if (error instanceof SecretBoxError) return undefined;
    throw error;
  }
}
