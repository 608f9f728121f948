import type { Db } from '../db/prisma';
import type { KeySource } from './keyring';
import { rotateKeys, type RotationReport } from './rotateKeys';

/**
 * The operator's side of rotate-keys: progress on stderr after each batch (stdout keeps the one
 * JSON result), and a failure when a blob stays unreadable, so a script notices.
 */
export async function rotateKeysCommand(db: Db, source: KeySource, batchSize: number): Promise<RotationReport> {
  const report = await rotateKeys(db, source, {
    batchSize,
    onBatch: (table, counts) => {
      process.stderr.write(
        `rotate-keys: ${table}: ${counts.rotated} rotated, ${counts.changedConcurrently} changed concurrently, ${counts.unreadable.length} unreadable\n`,
      );
    },
  });
  const unreadable = Object.entries(report.tables).flatMap(([table, counts]) =>
    counts.unreadable.map((id) => `${table}/${id}`),
  );
  if (unreadable.length > 0) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    throw new RotationIncompleteError(
      `${unreadable.length} secret(s) open under no configured key (add the key they were sealed with to ENCRYPTION_KEYS_PREVIOUS): ${unreadable.slice(0, 20).join(', ')}`,
    );
  }
  return report;
}

export class RotationIncompleteError extends Error {}
