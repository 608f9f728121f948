import { randomBytes } from 'node:crypto';
import type { StripeObject } from './objects';
import { defaultHoldMs } from './cards';
import { StripeWebhookSender } from './webhooks';

/** What the Stripe simulator keeps per secret key (one simulated Stripe account each). */
export interface StoredAnswer {
  status: number;
  body: unknown;
  /**
   * Stripe saves no result for a request that never began executing (failed validation, an error
   * in front of the API): the key stays free and a retry runs afresh.
   */
  notSaved?: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: unknown;
}

interface IdempotencyRecord {
  fingerprint: string;
  answer: Promise<StoredAnswer>;
  done: boolean;
}

export interface PendingAuthentication {
  intentId: string;
  returnUrl: string;
  card: { number: string; expMonth: number; expYear: number };
  /** True once the page was submitted: a second submit settles nothing. */
  settled: boolean;
}

export class StripeAccount {
  readonly intents = new Map<string, StripeObject>();
  readonly charges = new Map<string, StripeObject>();
  readonly refunds = new Map<string, StripeObject>();
  readonly customers = new Map<string, StripeObject>();
  readonly disputes = new Map<string, StripeObject>();
  /** The card number each PaymentIntent was confirmed with (its behaviour decides later answers). */
  readonly cardOf = new Map<string, string>();
  readonly requests: LoggedRequest[] = [];
  outage = false;
  holdMs = defaultHoldMs;
  /** Where this account's events are POSTed, signed with `secret` (none: only kept in `events`). */
  webhook?: { url: string; secret: string };
  readonly events: StripeObject[] = [];
  /** How long a pending refund waits before it succeeds by itself (null: until settled by hand). */
  pendingRefundSettleMs: number | null = 50;
  /** Sends an event about `object` (set by the simulator's state). */
  notify: (type: string, object: StripeObject) => void = () => undefined;
  /** Open authentication pages by token (a requires_action PaymentIntent redirected to the simulator). */
  readonly authentications = new Map<string, PendingAuthentication>();
  private readonly answers = new Map<string, IdempotencyRecord>();

  openAuthentication(pending: Omit<PendingAuthentication, 'settled'>): string {
    const token = `auth_${randomBytes(16).toString('hex')}`;
    this.authentications.set(token, { ...pending, settled: false });
    return token;
  }

  /**
   * Stripe's idempotency layer: the stored answer for a key used with the same request, a 409
   * while the first request under the key is still running, a 400 when the key was used for
   * another request (another endpoint or other parameters).
   */
  answerOnce(
    key: string,
    fingerprint: string,
    run: () => Promise<StoredAnswer>,
  ): { answer: Promise<StoredAnswer>; replayed: boolean } | 'in_progress' | 'mismatch' {
    const existing = this.answers.get(key);
    if (existing && !existing.done) return 'in_progress';
    if (existing)
      return existing.fingerprint === fingerprint ? { answer: existing.answer, replayed: true } : 'mismatch';
    const record: IdempotencyRecord = { fingerprint, answer: run(), done: false };
    this.answers.set(key, record);
    record.answer.then(
      (answer) => {
        if (answer.notSaved) this.answers.delete(key);
        else record.done = true;
      },
      // A crash inside the simulator is not an answer: the key may be used again.
      () => this.answers.delete(key),
    );
    return { answer: record.answer, replayed: false };
  }
}

export class StripeSimulatorState {
  private readonly accounts = new Map<string, StripeAccount>();

  constructor(readonly sender = new StripeWebhookSender(20)) {}

  /** The account whose authentication page `token` is. */
  authentication(token: string): { account: StripeAccount; pending: PendingAuthentication } | undefined {
    for (const account of this.accounts.values()) {
      const pending = account.authentications.get(token);
      if (pending) return { account, pending };
    }
    return undefined;
  }

  account(secretKey: string): StripeAccount {
    let account = this.accounts.get(secretKey);
    if (!account) {
      const created = new StripeAccount();
      created.notify = (type, object) => this.sender.send(created, type, object);
      this.accounts.set(secretKey, created);
      account = created;
    }
    return account;
  }
}
