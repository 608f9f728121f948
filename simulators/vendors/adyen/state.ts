import { randomInt } from 'node:crypto';
import type { AdyenCardBehaviour } from './cards';

/**
 * The Adyen simulator's memory: payments by pspReference, and the answer stored under each
 * idempotency key. Keys are scoped like Adyen's (per company account; here per API key) and across
 * endpoints. Memory only: a restarted simulator knows nothing.
 */
export interface SimAmount {
  value: number;
  currency: string;
}

export interface SimPayment {
  pspReference: string;
  merchantAccount: string;
  reference: string;
  amount: SimAmount;
  brand: string;
  behaviour: AdyenCardBehaviour;
  resultCode: string;
  manualCapture: boolean;
  shopperInteraction?: string;
  recurringProcessingModel?: string;
  /** The external 3DS values as received, byte for byte. */
  mpiData?: Record<string, string>;
  /** The request's metadata, echoed in the AUTHORISATION notification. */
  metadata?: Record<string, string>;
  captured: number;
  refunded: number;
  cancelled: boolean;
  /** Where the shopper goes back after the redirect (the request's returnUrl). */
  returnUrl?: string;
  /** The shopper's answer on the simulator's authentication page, once submitted. */
  redirect?: { authenticated: boolean; redirectResult: string };
  /** The /payments/details answer, once given (a second call answers it again). */
  details?: StoredAnswer;
  /** Made with authenticationData.authenticationOnly: 3-D Secure only, never authorised. */
  authenticationOnly?: boolean;
  /** The 3-D Secure result an authentication-only payment answered, as sent. */
  threeDS2Result?: Record<string, string>;
}

export interface StoredAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface WebhookTarget {
  url: string;
  hmacKey: string;
  live: boolean;
}

const pspAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export class AdyenSimulatorState {
  readonly payments = new Map<string, SimPayment>();
  private readonly answers = new Map<string, StoredAnswer>();
  private readonly inProgress = new Set<string>();
  private readonly targets = new Map<string, WebhookTarget>();
  /** Test controls per merchant account (not Adyen's): an outage, and how long held answers hold. */
  private readonly down = new Set<string>();
  private readonly holds = new Map<string, number>();

  /** Adyen's 16-character pspReference, unique in this simulator. */
  newPspReference(): string {
    for (;;) {
      let psp = '';
      for (let i = 0; i < 16; i++) psp += pspAlphabet[randomInt(pspAlphabet.length)];
      if (!this.payments.has(psp)) return psp;
    }
  }

  storedAnswer(scope: string, key: string): StoredAnswer | undefined {
    return this.answers.get(scopedKey(scope, key));
  }

  isInProgress(scope: string, key: string): boolean {
    return this.inProgress.has(scopedKey(scope, key));
  }

  begin(scope: string, key: string): void {
    this.inProgress.add(scopedKey(scope, key));
  }

  /** Ends the processing of a key; an answer given is stored for every later request under it. */
  finish(scope: string, key: string, answer?: StoredAnswer): void {
    this.inProgress.delete(scopedKey(scope, key));
    if (answer) this.answers.set(scopedKey(scope, key), answer);
  }

  setOutage(merchantAccount: string, enabled: boolean): void {
    if (enabled) this.down.add(merchantAccount);
    else this.down.delete(merchantAccount);
  }

  isDown(merchantAccount: string): boolean {
    return this.down.has(merchantAccount);
  }

  setHold(merchantAccount: string, ms: number): void {
    this.holds.set(merchantAccount, ms);
  }

  holdFor(merchantAccount: string): number | undefined {
    return this.holds.get(merchantAccount);
  }

  setWebhookTarget(merchantAccount: string, target: WebhookTarget): void {
    this.targets.set(merchantAccount, target);
  }

  /** The merchant account's webhook, else the one configured for every account (`*`). */
  webhookTarget(merchantAccount: string): WebhookTarget | undefined {
    return this.targets.get(merchantAccount) ?? this.targets.get('*');
  }
}

function scopedKey(scope: string, key: string): string {
  return `${scope}\u0000${key}`;
}
