import type { AcquirerState, Transaction } from './state';

/**
 * What stands under an authorization's idempotency key or transaction id, for an engine whose call
 * never got an answer. No ledger entry. A lookup by key that finds nothing closes the key (as a
 * reversal does), so "not found" stays true: nothing under it can charge any more.
 */
export type LookupAnswer =
  | { found: false }
  | {
      found: true;
      id: string;
      status: 'authorized' | 'captured' | 'declined' | 'voided' | 'refunded' | 'pending';
      amount: number;
      currency: string;
      /** A declined authorization's code. */
      code?: string;
    };

export function lookupByKey(state: AcquirerState, merchantId: string, idempotencyKey: string): LookupAnswer {
  const transaction = state.transactionByKey(merchantId, idempotencyKey);
  if (transaction) return fromTransaction(transaction);
  // Received and still being processed (the held timeout card): it may yet charge.
  const inFlight = state.inFlightAuthorization(merchantId, idempotencyKey);
  if (inFlight) return { found: true, status: 'pending', ...inFlight };
  const declined = declinedAuthorization(
    state,
    (entry) => entry.merchantId === merchantId && entry.idempotencyKey === idempotencyKey,
  );
  if (!declined.found) state.closeKey(merchantId, idempotencyKey);
  return declined;
}

export function lookupById(state: AcquirerState, merchantId: string, transactionId: string): LookupAnswer {
  const transaction = state.transactions.get(transactionId);
  if (transaction && transaction.merchantId === merchantId) return fromTransaction(transaction);
  return declinedAuthorization(
    state,
    (entry) => entry.merchantId === merchantId && entry.transactionId === transactionId,
  );
}

function fromTransaction(transaction: Transaction): LookupAnswer {
  const base = {
    found: true as const,
    id: transaction.id,
    amount: transaction.authorizedAmount,
    currency: transaction.currency,
  };
  const captured = transaction.capturedAmount > 0;
  switch (transaction.status) {
    case 'authorized':
      return { ...base, status: 'authorized' };
    case 'captured':
      return { ...base, status: transaction.refundedAmount >= transaction.capturedAmount ? 'refunded' : 'captured' };
    case 'voided':
      return { ...base, status: 'voided' };
    case 'reversed':
      return { ...base, status: captured ? 'refunded' : 'voided' };
    case 'requires_action':
      return { ...base, status: 'pending' };
    case 'declined':
      return { ...base, status: 'declined', code: transaction.stepUp?.declineCode ?? 'card_declined' };
  }
}

/** A declined authorization left a ledger entry only (no transaction, unless a step-up); requires_3ds left neither a charge nor an id. */
function declinedAuthorization(
  state: AcquirerState,
  matches: (entry: AcquirerState['ledger'][number]) => boolean,
): LookupAnswer {
  for (let index = state.ledger.length - 1; index >= 0; index--) {
    const entry = state.ledger[index]!;
    if (entry.operation !== 'authorize' || entry.outcome !== 'declined' || !matches(entry)) continue;
    if (!entry.transactionId) break;
    return {
      found: true,
      id: entry.transactionId,
      status: 'declined',
      amount: entry.amount,
      currency: entry.currency,
      ...(entry.code ? { code: entry.code } : {}),
    };
  }
  return { found: false };
}
