import { randomUUID } from 'node:crypto';

/**
 * Test controls that hold an authorization in flight until a test releases it, so a test can do
 * its thing while the call is at the acquirer (kill the worker, send a duplicate, turn an outage
 * on) without guessing a wall-clock window:
 * - arm: `POST /acquirer/_simulator/holds {merchantId, idempotencyKey?, cardLast4?}` → 201
 *   `{holdId, status: "armed"}`. The next authorization of that merchant that matches (the key, the
 *   card's last four digits, or any when neither is given) stops after its checks, where the
 *   timeout card waits, and stays there until released. A hold catches one call.
 * - look: `GET /acquirer/_simulator/holds/{holdId}` → `{holdId, status: armed|holding|released,
 *   idempotencyKey}` (the key of the call it caught): `holding` is the positive marker that the call
 *   reached the acquirer.
 * - release: `POST /acquirer/_simulator/holds/{holdId}/release` → the held call goes on (a reversal
 *   that arrived meanwhile still wins); an armed hold that caught nothing is disarmed.
 * In memory only: a hold dies with the sandbox process. The sandbox runs only in test mode, so
 * live traffic never reaches these controls.
 */
export interface HoldMatch {
  merchantId: string;
  idempotencyKey?: string;
  cardLast4?: string;
}

export type HoldStatus = 'armed' | 'holding' | 'released';

interface Hold {
  id: string;
  match: HoldMatch;
  status: HoldStatus;
  idempotencyKey: string | null;
  released: Promise<void>;
  release(): void;
}

/** How many holds a sandbox keeps (released ones are dropped oldest first past this). */
const maxHolds = 1_000;

export class AcquirerHolds {
  private readonly holds = new Map<string, Hold>();

  arm(match: HoldMatch): HoldView {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hold: Hold = { id: `hold_${randomUUID()}`, match, status: 'armed', idempotencyKey: null, released, release };
    this.holds.set(hold.id, hold);
    this.trim();
    return view(hold);
  }

  get(holdId: string): HoldView | undefined {
    const hold = this.holds.get(holdId);
    return hold && view(hold);
  }

  release(holdId: string): HoldView | undefined {
    const hold = this.holds.get(holdId);
    if (!hold) return undefined;
    hold.status = 'released';
    hold.release();
    return view(hold);
  }

  /** Waits while an armed hold matches this call (it takes the first that does); resolves at once otherwise. */
  async waitIfHeld(call: { merchantId: string; idempotencyKey: string; cardNumber: string }): Promise<void> {
    for (const hold of this.holds.values()) {
      if (hold.status !== 'armed' || !matches(hold.match, call)) continue;
      hold.status = 'holding';
      hold.idempotencyKey = call.idempotencyKey;
      await hold.released;
      return;
    }
  }

  private trim(): void {
    for (const [id, hold] of this.holds) {
      if (this.holds.size <= maxHolds) return;
      if (hold.status === 'released') this.holds.delete(id);
    }
  }
}

export interface HoldView {
  holdId: string;
  status: HoldStatus;
  merchantId: string;
  idempotencyKey: string | null;
}

function view(hold: Hold): HoldView {
  return {
    holdId: hold.id,
    status: hold.status,
    merchantId: hold.match.merchantId,
    idempotencyKey: hold.idempotencyKey,
  };
}

function matches(match: HoldMatch, call: { merchantId: string; idempotencyKey: string; cardNumber: string }): boolean {
  if (match.merchantId !== call.merchantId) return false;
  if (match.idempotencyKey !== undefined && match.idempotencyKey !== call.idempotencyKey) return false;
  if (match.cardLast4 !== undefined && !call.cardNumber.endsWith(match.cardLast4)) return false;
  return true;
}
