import { initiatedByMismatch } from './rules';

/**
 * Which 3DS the payment step needs (pure; the activity loads the facts). Rules (docs/threeds.md):
 * - values are used only when the flow has threeDsEnabled and a processor has enable3DS, and only
 *   a processor accepting external values (capability externalThreeDs) can receive them;
 * - a failed or unfinished session declines the payment at the 3DS step, before any processor;
 * - with no session, the engine authenticates when the flow and a processor ask for 3DS and some
 *   such processor takes external values (hosted-3DS processors run their own): a
 *   customer-initiated payment on the browser channel (a challenge is possible), a
 *   merchant-initiated one (a renewal on the card on file) with a 3RI merchant session, since no
 *   cardholder is there to be challenged.
 */
export interface PlanFacts {
  initiatedBy: 'customer' | 'merchant';
  flowThreeDsEnabled: boolean;
  processors: { enable3DS: boolean; capabilities: string[] }[];
  session:
    | { found: false }
    | { found: true; type: string; status: string; transStatus: string | null; failureReason: string | null }
    | null;
}

export type PlanDecision =
  | { kind: 'skip' }
  | { kind: 'use'; forward: boolean }
  | { kind: 'declined'; code: string; message: string }
  | { kind: 'authenticate'; deviceChannel: 'browser' | '3ri' };

export function planThreeDs(facts: PlanFacts): PlanDecision {
  const asking = facts.flowThreeDsEnabled ? facts.processors.filter((processor) => processor.enable3DS) : [];
  const forwardable = asking.some((processor) => processor.capabilities.includes('externalThreeDs'));
  if (facts.session) {
    if (!facts.session.found)
      return {
        kind: 'declined',
        code: 'threeds_session_not_found',
        message: 'The 3DS session does not exist in this account and mode',
      };
    const mismatch = initiatedByMismatch(facts.session.type, facts.initiatedBy);
    if (mismatch) return { kind: 'declined', code: 'threeds_session_type_mismatch', message: mismatch };
    if (facts.session.status === 'failed') {
      const why =
        facts.session.failureReason === 'challenge_timeout'
          ? 'the challenge was never completed'
          : `transStatus ${facts.session.transStatus ?? 'unknown'}`;
      return {
        kind: 'declined',
        code: 'threeds_authentication_failed',
        message: `3-D Secure authentication failed (${why})`,
      };
    }
    if (facts.session.status !== 'authenticated') {
      return {
        kind: 'declined',
        code: 'threeds_session_not_authenticated',
        message: `The 3DS session is ${facts.session.status}, not authenticated`,
      };
    }
    return { kind: 'use', forward: forwardable };
  }
  if (!forwardable) return { kind: 'skip' };
  return { kind: 'authenticate', deviceChannel: facts.initiatedBy === 'merchant' ? '3ri' : 'browser' };
}
