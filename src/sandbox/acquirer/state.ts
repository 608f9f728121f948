import { randomBytes } from 'node:crypto';

/** The sandbox acquirer's memory: transactions, stored answers by idempotency key, the ledger. */
export type Operation = 'authorize' | 'capture' | 'void' | 'refund';

export interface Transaction {
  id: string;
  merchantId: string;
  reference: string;
  currency: string;
  cardNumber: string;
  authorizedAmount: number;
  capturedAmount: number;
  refundedAmount: number;
  status: 'authorized' | 'captured' | 'voided';
  disputeOpened?: { reason: string; amount: number };
}

/** One processed call. Replays of an idempotency key and calls refused by an outage add nothing. */
export interface LedgerEntry {
  id: string;
  merchantId: string;
  idempotencyKey: string;
  operation: Operation;
  /** approved | declined | requires_3ds (authorize); succeeded | failed (capture, void, refund). */
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
    const scoped = `${merchantId}\u0000${key}`;
    const existing = this.answers.get(scoped);
    if (existing) return existing.fingerprint === fingerprint ? existing.answer : undefined;
    const answer = run();
    this.answers.set(scoped, { fingerprint, answer });
    if (this.answers.size > maxStoredAnswers) this.answers.delete(this.answers.keys().next().value!);
    // A crash inside the simulator is not an answer: the key may be tried again.
    answer.catch(() => this.answers.delete(scoped));
    return answer;
  }

  record(entry: Omit<LedgerEntry, 'id' | 'createdAt'>): void {
    this.ledger.push({ id: `led_${randomBytes(8).toString('hex')}`, createdAt: new Date().toISOString(), ...entry });
    if (this.ledger.length > maxLedgerEntries) this.ledger.splice(0, this.ledger.length - maxLedgerEntries);
  }
}

export function acquirerId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
