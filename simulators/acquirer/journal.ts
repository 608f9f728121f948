import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { testCards } from './cards';
import type { LedgerEntry, StoredAnswer, Transaction } from './state';

/** One line of the acquirer's journal. `scope` is (merchant, idempotency key). */
export type JournalRecord =
  | { kind: 'answer'; scope: string; fingerprint: string; answer: StoredAnswer }
  | { kind: 'transaction'; transaction: Transaction }
  | { kind: 'ledger'; entry: LedgerEntry }
  | { kind: 'reversed'; scope: string };

/** Files the journal writes are the engine's own: readable by its user only. */
const fileMode = 0o600;
const directoryMode = 0o700;

/**
 * The sandbox acquirer's memory on disk, as a real acquirer keeps it: an append-only file of JSON
 * lines, replayed at start-up, so a restarted acquirer still knows every idempotency key it
 * answered and never approves one twice. An operation's effects and its stored answer go out in
 * one `write`: a `kill -9` leaves either all of them or none (a torn last line is skipped).
 *
 * No card number is ever written: cards and requests appear as keyed hashes (HMAC-SHA256 under
 * the key in `journal.key` beside the file, made once) and the last four digits. The file, the
 * key and the folder are readable by the engine's user only (0600, folder 0700).
 */
export class AcquirerJournal {
  /** The key of the journal's fingerprints, stable across restarts so stored fingerprints still match. */
  readonly fingerprintKey: Buffer;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: directoryMode });
    if (fs.existsSync(file)) fs.chmodSync(file, fileMode);
    this.fingerprintKey = readOrCreateKey(path.join(path.dirname(file), 'journal.key'));
  }

  /** Every complete record, oldest first. */
  read(): JournalRecord[] {
    if (!fs.existsSync(this.file)) return [];
    const records: JournalRecord[] = [];
    for (const line of fs.readFileSync(this.file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as JournalRecord);
      } catch {
        // Only the last line can be torn (a crash mid-write); its operation never answered.
      }
    }
    return records;
  }

  /** Synchronous, so the answer leaves the acquirer only once its record is in the file. */
  append(records: JournalRecord[]): void {
    if (records.length === 0) return;
    fs.appendFileSync(this.file, records.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: fileMode });
  }

  /** Replaces the file by `records` (what is still remembered), atomically by rename. */
  rewrite(records: JournalRecord[]): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, records.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: fileMode });
    fs.renameSync(temporary, this.file);
  }
}

/** 32 random bytes (hex) in `file`, created with mode 0600 on first use; a concurrent creator's key wins. */
function readOrCreateKey(file: string): Buffer {
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: fileMode, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    fs.chmodSync(file, fileMode);
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte hex key`);
  return key;
}

/** Marks a fingerprint (an HMAC), so a journal line from before fingerprints is told apart. */
export const fingerprintPrefix = 'hmac-sha256:';

/** A record of a journal from before fingerprints, as it is written now (the same record when already so). */
export function withoutCardNumber(
  record: JournalRecord,
  keys: { fingerprint(text: string): string; cardFingerprint(cardNumber: string): string },
): JournalRecord {
  if (record.kind === 'answer' && !record.fingerprint.startsWith(fingerprintPrefix))
    return { ...record, fingerprint: keys.fingerprint(record.fingerprint) };
  if (record.kind !== 'transaction') return record;
  const { cardNumber, ...transaction } = record.transaction as Transaction & { cardNumber?: string };
  if (cardNumber === undefined) return record;
  return {
    kind: 'transaction',
    transaction: {
      ...transaction,
      cardFingerprint: keys.cardFingerprint(cardNumber),
      cardLast4: cardNumber.slice(-4),
      ...(testCards[cardNumber]?.kind === 'dispute' ? { disputesOnCapture: true } : {}),
    },
  };
}
