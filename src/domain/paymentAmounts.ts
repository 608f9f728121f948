/**
 * The amount rules of captures, refunds and disputes, kept pure so they can be stated as laws
 * (test/unit/properties). The services apply them to what they read; the conditional UPDATEs
 * that enforce them under concurrency stay in the services, where the state is.
 */

export type SettlementOperation = 'capture' | 'void';

export type SettlementAmount = { ok: true; amount: number } | { ok: false; reason: 'exceeds_authorization' };

/**
 * What a capture or void moves: a capture takes the amount asked (a partial capture) or else the
 * whole authorization, and never more than was authorized; a void releases the whole authorization.
 */
export function settlementAmount(
  operation: SettlementOperation,
  authorized: number,
  requested?: number | null,
): SettlementAmount {
  const amount = operation === 'capture' ? (requested ?? authorized) : authorized;
  if (amount > authorized) return { ok: false, reason: 'exceeds_authorization' };
  return { ok: true, amount };
}

export type RefundAmount = { ok: true; amount: number } | { ok: false; reason: 'nothing_left' | 'exceeds_captured' };

/** True while refunds reserving `amount` more stay within what was captured. */
export function refundFits(captured: number, reserved: number, amount: number): boolean {
  return reserved + amount <= captured;
}

/**
 * What a new refund reserves. `reserved` is what the payment's refunds hold already (pending and
 * succeeded: `payments.amount_refunded`). The amount asked, or else all that is left; refused when
 * nothing is left or when it would take the refunds past the capture.
 */
export function refundAmount(captured: number, reserved: number, requested?: number | null): RefundAmount {
  const amount = requested ?? captured - reserved;
  if (amount < 1) return { ok: false, reason: 'nothing_left' };
  if (!refundFits(captured, reserved, amount)) return { ok: false, reason: 'exceeds_captured' };
  return { ok: true, amount };
}

export type RefundedPaymentStatus = 'succeeded' | 'partially_refunded' | 'refunded';

/** A captured payment's status from what its succeeded refunds add up to. */
export function refundedPaymentStatus(captured: number, succeededRefunds: number): RefundedPaymentStatus {
  if (succeededRefunds === 0) return 'succeeded';
  return succeededRefunds >= captured ? 'refunded' : 'partially_refunded';
}

export type DisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';
export const openDisputeStatuses: readonly DisputeStatus[] = ['needs_response', 'under_review'];

export type DisputeAmount = { ok: true; amount: number } | { ok: false; reason: 'not_captured' | 'exceeds_captured' };

/** A dispute recorded through the API: of a captured payment, the amount asked or all of the capture. */
export function disputeAmount(captured: number, requested?: number | null): DisputeAmount {
  if (captured === 0) return { ok: false, reason: 'not_captured' };
  if ((requested ?? 0) > captured) return { ok: false, reason: 'exceeds_captured' };
  return { ok: true, amount: requested ?? captured };
}

/**
 * A chargeback a processor reports: its amount when given in the payment's currency, capped at the
 * capture; otherwise (another currency, no amount) the whole capture.
 */
export function processorDisputeAmount(
  captured: number,
  paymentCurrency: string,
  reported: { amount?: number; currency?: string },
): number {
  const sameCurrency = reported.currency?.toUpperCase() === paymentCurrency && reported.amount !== undefined;
  return sameCurrency ? Math.min(reported.amount!, captured) : captured;
}

/**
 * The statuses a processor's outcome closes a dispute from: `won` only an open one; `lost` an open
 * one or a won one (the processor's loss is final, pre-arbitration can follow a reversal).
 */
export function disputeClosableFrom(outcome: 'won' | 'lost'): DisputeStatus[] {
  return outcome === 'won' ? [...openDisputeStatuses] : [...openDisputeStatuses, 'won'];
}
