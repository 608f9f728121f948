import { randomBytes } from 'node:crypto';

/** The sandbox acquirer's memory: transactions, stored answers by idempotency key, the ledger. */
export type Operation = 'authorize' | 'capture' | 'void' | 'refund' | 'reversal';

export interface Transaction {
  id: string;
  merchantId: string;
  /** The key the authorization came with; reversals find the transaction by it. */
  idempotencyKey: string;
  reference: string;
  currency: string;
  cardNumber: string;
  authorizedAmount: number;
  capturedAmount: number;
  refundedAmount: number;
  status: 'authorized' | 'captured' | 'voided' | 'reversed';
  disputeOpened?: { reason: string; amount: number };
}

/** One processed call. Replays of an idempotency key and calls refused by an outage add nothing. */
export interface LedgerEntry {
  id: string;
  merchantId: string;
  idempotencyKey: string;
  operation: Operation;
  /** approved | declined | requires_3ds (authorize); succeeded | failed (capture, void, refund, reversal). */
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

interface IdempotencyRecord {
  fingerprint: string;
  answer: Promise<StoredAnswer>;
}

/** A long `npm start` session keeps the newest entries only; tests never get near these. */
const maxLedgerEntries = 200_000;
const maxStoredAnswers = 200_000;

export class AcquirerState {
  readonly transactions = new Map<string, Transaction>();
  readonly ledger: LedgerEntry[] = [];
  private readonly outages = new Set<string>();
  private readonly answers = new Map<string, IdempotencyRecord>();
  private readonly transactionsByKey = new Map<string, string>();
  /** Authorization keys a reversal named: an authorization under one of them never charges. */
  private readonly reversedKeys = new Set<string>();

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
   * Returns undefined when the key was used for a different request.
   */
  answerOnce(merchantId: string, key: string, fingerprint: string, run: () => Promise<StoredAnswer>): Promise<StoredAnswer> | undefined {
    const scoped = scopedKey(merchantId, key);
    const existing = this.answers.get(scoped);
    if (existing) return existing.fingerprint === fingerprint ? existing.answer : undefined;
    const answer = run();
    this.answers.set(scoped, { fingerprint, answer });
    if (this.answers.size > maxStoredAnswers) this.answers.delete(this.answers.keys().next().value!);
    // A crash inside the simulator is not an answer: the key may be tried again.
    answer.catch(() => this.answers.delete(scoped));
    return answer;
  }

  addTransaction(transaction: Transaction): void {
    this.transactions.set(transaction.id, transaction);
    this.transactionsByKey.set(scopedKey(transaction.merchantId, transaction.idempotencyKey), transaction.id);
    if (this.transactionsByKey.size > maxStoredAnswers) this.transactionsByKey.delete(this.transactionsByKey.keys().next().value!);
  }

  transactionByKey(merchantId: string, idempotencyKey: string): Transaction | undefined {
    const id = this.transactionsByKey.get(scopedKey(merchantId, idempotencyKey));
    return id === undefined ? undefined : this.transactions.get(id);
  }

  markReversed(merchantId: string, idempotencyKey: string): void {
    this.reversedKeys.add(scopedKey(merchantId, idempotencyKey));
    if (this.reversedKeys.size > maxStoredAnswers) this.reversedKeys.delete(this.reversedKeys.values().next().value!);
  }

  isReversed(merchantId: string, idempotencyKey: string): boolean {
    return this.reversedKeys.has(scopedKey(merchantId, idempotencyKey));
  }

  record(entry: Omit<LedgerEntry, 'id' | 'createdAt'>): void {
    this.ledger.push({ id: `led_${randomBytes(8).toString('hex')}`, createdAt: new Date().toISOString(), ...entry });
    if (this.ledger.length > maxLedgerEntries) this.ledger.splice(0, this.ledger.length - maxLedgerEntries);
  }
}

function scopedKey(merchantId: string, key: string): string {
  return `${merchantId}\u0000${key}`;
}

export function acquirerId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
