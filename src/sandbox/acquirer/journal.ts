import fs from 'node:fs';
import path from 'node:path';
import type { LedgerEntry, StoredAnswer, Transaction } from './state';

/** One line of the acquirer's journal. `scope` is (merchant, idempotency key). */
export type JournalRecord =
  | { kind: 'answer'; scope: string; fingerprint: string; answer: StoredAnswer }
  | { kind: 'transaction'; transaction: Transaction }
  | { kind: 'ledger'; entry: LedgerEntry }
  | { kind: 'reversed'; scope: string };

/**
 * The sandbox acquirer's memory on disk, as a real acquirer keeps it: an append-only file of JSON
 * lines, replayed at start-up, so a restarted acquirer still knows every idempotency key it
 * answered and never approves one twice. An operation's effects and its stored answer go out in
 * one `write`: a `kill -9` leaves either all of them or none (a torn last line is skipped).
 */
export class AcquirerJournal {
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
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
    fs.appendFileSync(this.file, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  }

  /** Replaces the file by `records` (what is still remembered), atomically by rename. */
  rewrite(records: JournalRecord[]): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    fs.renameSync(temporary, this.file);
  }
}
