import type { DeclineCode } from '../../../../src/processors/declineCodes';
import type { ProcessorAdapter } from '../../../../src/processors/types';

/**
 * What the processor contract suite needs from one processor type: its simulator over real HTTP,
 * a fresh account on it per test, and the simulator's test cards for each case. Adding a type to
 * the suite is one kit (kits/<type>.ts) and one line in kits/index.ts.
 */
export interface ProcessorKit {
  type: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A fresh account at the simulator: nothing of other tests is visible to it. */
  account(options: { timeoutMs: number; holdMs: number }): Promise<KitAccount>;
  /**
   * What the adapter sent (or the simulator answered) since the last call that the vendor's own
   * API document refuses; the suite expects none after every test. Kits whose requests are built
   * by the vendor's SDK (Stripe) or that have no published document (sandbox) leave it out.
   */
  problems?(): string[];
  cards: {
    approve: string;
    approveOther: string;
    /** Declines answered as data: card, the engine's code, its category. */
    declines: readonly [string, DeclineCode, 'hard_decline' | 'soft_decline' | 'technical'][];
    requires3ds: string;
    /** Held by the simulator for `holdMs`, then approved. */
    hold: string;
    /** Charged, then answered 5xx without saying whether it was processed. */
    errorAfterCharge: string;
  };
}

export interface KitAccount {
  credentials: Record<string, string>;
  /** Credentials that the simulator rejects (unknown key). */
  rejectedCredentials: Record<string, string>;
  /** The same account reached at another origin (credentials.endpoint). */
  credentialsAt(origin: string): Record<string, string>;
  adapter: ProcessorAdapter;
  outage(enabled: boolean): Promise<void>;
  /** What stands charged or held at the simulator for a payment id (authorizations minus what was undone). */
  netCharged(paymentId: string): Promise<number>;
}
