import { createHmac, randomBytes } from 'node:crypto';
import { AcquirerHolds } from './holds';
import { memoryLimitDefaults } from '../../src/config';
import { fingerprintPrefix, withoutCardNumber, type AcquirerJournal, type JournalRecord } from './journal';

/** The sandbox acquirer's memory: transactions, stored answers by idempotency key, the ledger. */
export type Operation = 'authorize' | 'capture' | 'void' | 'refund' | 'reversal';

export interface Transaction {
  id: string;
  merchantId: string;
  /** The key the authorization came with; reversals find the transaction by it. */
  idempotencyKey: string;
  reference: string;
  currency: string;
  /** Keyed hash of the card number (AcquirerState.cardFingerprint): the number itself is never kept. */
  cardFingerprint: string;
  cardLast4: string;
  /** The dispute test card: its capture opens a dispute. */
  disputesOnCapture?: boolean;
  authorizedAmount: number;
  capturedAmount: number;
  refundedAmount: number;
  /** requires_action: waiting for the shopper at the acquirer's authentication page (authentication.ts). */
  status: 'authorized' | 'captured' | 'voided' | 'reversed' | 'requires_action' | 'declined';
  disputeOpened?: { reason: string; amount: number };
  /** A step-up's page token, where it sends the browser back, and what the call asked for once approved. */
  stepUp?: { token: string; returnUrl: string; capture: boolean; declineCode?: string };
}

/** One processed call. Replays of an idempotency key and calls refused by an outage add nothing. */
export interface LedgerEntry {
  id: string;
  merchantId: string;
  idempotencyKey: string;
  operation: Operation;
  /** approved | declined | requires_3ds | requires_action (authorize); succeeded | failed (capture, void, refund, reversal). */
  outcome: string;
  code: string | null;
  amount: number;
  currency: string;
  /** The engine's reference (payment id) of the authorization this entry belongs to. */
  reference: string;
  transactionId: string | null;
  cardLast4: string | null;
  /** The 3DS object as received, serialised (`JSON.stringify` of the parsed body keeps every string byte for byte). */
  threeDs: string | null;
  disputeOpened: { reason: string; amount: number } | null;
  createdAt: string;
}

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** An authorization received and not answered yet (the held timeout card). */
export interface InFlightAuthorization {
  id: string;
  amount: number;
  currency: string;
}

interface IdempotencyRecord {
  fingerprint: string;
  answer: Promise<StoredAnswer>;
}

/**
 * What one operation reads and changes. Its changes apply at once, and with a journal they are
 * also collected, to be written in the same line batch as the operation's stored answer.
 */
export interface AcquirerBook {
  readonly transactions: ReadonlyMap<string, Transaction>;
  /** A card number as the acquirer keeps it: a keyed hash, never the number. */
  cardFingerprint(cardNumber: string): string;
  transactionByKey(merchantId: string, idempotencyKey: string): Transaction | undefined;
  isReversed(merchantId: string, idempotencyKey: string): boolean;
  addTransaction(transaction: Transaction): void;
  markReversed(merchantId: string, idempotencyKey: string): void;
  /** An authorization is being processed under this key (a lookup answers it as pending); memory only. */
  beginAuthorization(merchantId: string, idempotencyKey: string, inFlight: InFlightAuthorization): void;
  endAuthorization(merchantId: string, idempotencyKey: string): void;
  /** Resolves once no test hold (holds.ts) keeps this authorization in flight; memory only. */
  waitIfHeld(call: { merchantId: string; idempotencyKey: string; cardNumber: string }): Promise<void>;
  /** Operations record an entry after every change, so the transaction it names is journaled as it then stands. */
  record(entry: Omit<LedgerEntry, 'id' | 'createdAt'>): void;
}

/**
 * In memory, and with a journal (see AcquirerJournal) also on disk, replayed at start-up. A long
 * session keeps the newest `maxEntries` of each structure (ledger entries, stored answers,
 * transactions, reversed keys; SANDBOX_ACQUIRER_MAX_ENTRIES): a key older than that window is
 * answered as a new one.
 */
export class AcquirerState {
  readonly transactions = new Map<string, Transaction>();
  readonly ledger: LedgerEntry[] = [];
  private readonly outages = new Set<string>();
  private readonly answers = new Map<string, IdempotencyRecord>();
  private readonly transactionsByKey = new Map<string, string>();
  /** Authorization keys a reversal named: an authorization under one of them never charges. */
  private readonly reversedKeys = new Set<string>();
  /** Not journaled: a call held when the process died never completes, so it never charges. */
  private readonly inFlight = new Map<string, InFlightAuthorization>();
  /** Test holds (POST /_simulator/holds): not journaled either. */
  readonly holds = new AcquirerHolds();
  /** Keys fingerprints of cards and requests: the journal's (stable across restarts), else this process's own. */
  private readonly fingerprintKey: Buffer;

  constructor(
    private readonly journal?: AcquirerJournal,
    private readonly maxEntries: number = memoryLimitDefaults.SANDBOX_ACQUIRER_MAX_ENTRIES,
  ) {
    this.fingerprintKey = journal?.fingerprintKey ?? randomBytes(32);
    if (journal) this.restore(journal);
  }

  /** HMAC-SHA256 of `text` under the fingerprint key, marked so a journal line from before is told apart. */
  fingerprint(text: string): string {
    return `${fingerprintPrefix}${createHmac('sha256', this.fingerprintKey).update(text).digest('hex')}`;
  }

  cardFingerprint(cardNumber: string): string {
    return this.fingerprint(`card\u0000${cardNumber}`);
  }

  setOutage(merchantId: string, enabled: boolean): void {
    if (enabled) this.outages.add(merchantId);
    else this.outages.delete(merchantId);
  }

  inOutage(merchantId: string): boolean {
    return this.outages.has(merchantId);
  }

  /**
   * The answer for (merchant, key): the stored one when the key was seen (even while the first
   * call is still running, so a retry waits for that very answer), or a fresh one from `run`.
   * Returns undefined when the key was used for a different request (`request`: what identifies
   * the call, kept only as its fingerprint since it carries the card number). The answer is sent
   * only after it and everything `run` changed are in the journal, in one write.
   */
  answerOnce(
    merchantId: string,
    key: string,
    request: string,
    run: (book: AcquirerBook) => Promise<StoredAnswer>,
  ): Promise<StoredAnswer> | undefined {
    const fingerprint = this.fingerprint(request);
    const scope = scopedKey(merchantId, key);
    const existing = this.answers.get(scope);
    if (existing) return existing.fingerprint === fingerprint ? existing.answer : undefined;
    const changes: JournalRecord[] = [];
    const answer = run(this.bookFor(changes)).then((stored) => {
      this.journal?.append([...changes, { kind: 'answer', scope, fingerprint, answer: stored }]);
      return stored;
    });
    this.rememberAnswer(scope, fingerprint, answer);
    // A crash inside the simulator is not an answer: the key may be tried again.
    answer.catch(() => this.answers.delete(scope));
    return answer;
  }

  transactionByKey(merchantId: string, idempotencyKey: string): Transaction | undefined {
    const id = this.transactionsByKey.get(scopedKey(merchantId, idempotencyKey));
    return id === undefined ? undefined : this.transactions.get(id);
  }

  isReversed(merchantId: string, idempotencyKey: string): boolean {
    return this.reversedKeys.has(scopedKey(merchantId, idempotencyKey));
  }

  /**
   * Closes a key nothing stands under (a lookup found nothing): an authorization under it that is
   * still in flight or arrives later declines `authorization_reversed`. Journaled at once.
   */
  closeKey(merchantId: string, idempotencyKey: string): void {
    const record: JournalRecord = { kind: 'reversed', scope: scopedKey(merchantId, idempotencyKey) };
    this.apply(record);
    this.journal?.append([record]);
  }

  /** Changes made outside a call (the authentication page's submit), journaled in one write as a call's are. */
  transact<T>(run: (book: AcquirerBook) => T): T {
    const changes: JournalRecord[] = [];
    const result = run(this.bookFor(changes));
    this.journal?.append(changes);
    return result;
  }

  inFlightAuthorization(merchantId: string, idempotencyKey: string): InFlightAuthorization | undefined {
    return this.inFlight.get(scopedKey(merchantId, idempotencyKey));
  }

  private bookFor(changes: JournalRecord[]): AcquirerBook {
    const change = (record: JournalRecord) => {
      this.apply(record);
      if (this.journal) changes.push(record);
    };
    return {
      transactions: this.transactions,
      cardFingerprint: (cardNumber) => this.cardFingerprint(cardNumber),
      transactionByKey: (merchantId, idempotencyKey) => this.transactionByKey(merchantId, idempotencyKey),
      isReversed: (merchantId, idempotencyKey) => this.isReversed(merchantId, idempotencyKey),
      addTransaction: (transaction) => change({ kind: 'transaction', transaction }),
      markReversed: (merchantId, idempotencyKey) =>
        change({ kind: 'reversed', scope: scopedKey(merchantId, idempotencyKey) }),
      beginAuthorization: (merchantId, idempotencyKey, inFlight) =>
        this.inFlight.set(scopedKey(merchantId, idempotencyKey), inFlight),
      endAuthorization: (merchantId, idempotencyKey) => this.inFlight.delete(scopedKey(merchantId, idempotencyKey)),
      waitIfHeld: (call) => this.holds.waitIfHeld(call),
      record: (entry) => {
        change({
          kind: 'ledger',
          entry: { id: `led_${randomBytes(8).toString('hex')}`, createdAt: new Date().toISOString(), ...entry },
        });
        const transaction = entry.transactionId === null ? undefined : this.transactions.get(entry.transactionId);
        if (transaction && this.journal) changes.push({ kind: 'transaction', transaction: { ...transaction } });
      },
    };
  }

  private apply(record: JournalRecord): void {
    switch (record.kind) {
      case 'answer':
        this.rememberAnswer(record.scope, record.fingerprint, Promise.resolve(record.answer));
        return;
      case 'transaction': {
        const { transaction } = record;
        this.transactions.set(transaction.id, transaction);
        this.transactionsByKey.set(scopedKey(transaction.merchantId, transaction.idempotencyKey), transaction.id);
        dropOldest(this.transactions, this.maxEntries);
        dropOldest(this.transactionsByKey, this.maxEntries);
        return;
      }
      case 'ledger':
        this.ledger.push(record.entry);
        if (this.ledger.length > this.maxEntries) this.ledger.splice(0, this.ledger.length - this.maxEntries);
        return;
      case 'reversed':
        this.reversedKeys.add(record.scope);
        dropOldest(this.reversedKeys, this.maxEntries);
        return;
    }
  }

  private rememberAnswer(scope: string, fingerprint: string, answer: Promise<StoredAnswer>): void {
    this.answers.set(scope, { fingerprint, answer });
    dropOldest(this.answers, this.maxEntries);
  }

  /**
   * Replays the journal; one that grew far beyond what is still remembered is rewritten without the
   * rest, and one written before cards were fingerprinted (card numbers in its transactions and
   * request fingerprints) is rewritten at once without them.
   */
  private restore(journal: AcquirerJournal): void {
    const read = journal.read();
    const records = read.map((record) => withoutCardNumber(record, this));
    const hadCardNumbers = records.some((record, i) => record !== read[i]);
    for (const record of records) this.apply(record);
    const ledgerIds = new Set(this.ledger.map((entry) => entry.id));
    const remembered = records.filter((record) => {
      switch (record.kind) {
        case 'answer':
          return this.answers.has(record.scope);
        case 'transaction':
          // Each change of a transaction is a new record; only its latest one is current.
          return this.transactions.get(record.transaction.id) === record.transaction;
        case 'ledger':
          return ledgerIds.has(record.entry.id);
        case 'reversed':
          return this.reversedKeys.has(record.scope);
      }
    });
    if (hadCardNumbers || records.length > 2 * remembered.length + 10_000) journal.rewrite(remembered);
  }
}

/** Maps and sets iterate in insertion order: the first keys are the oldest. */
function dropOldest(collection: Map<string, unknown> | Set<string>, max: number): void {
  for (const key of collection.keys()) {
    if (collection.size <= max) return;
    collection.delete(key);
  }
}

function scopedKey(merchantId: string, key: string): string {
  return `${merchantId}\u0000${key}`;
}

export function acquirerId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
