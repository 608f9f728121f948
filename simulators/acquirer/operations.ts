import { setTimeout as delay } from 'node:timers/promises';
import { isExpiryInFuture, passesLuhn } from '../../src/domain/luhn';
import { startStepUp } from './authentication';
import { defaultTimeoutDelayMs, testCards, type CardBehaviour } from './cards';
import { acquirerId, type AcquirerBook, type Operation, type StoredAnswer, type Transaction } from './state';

/** What the acquirer does for each call, once per idempotency key (the router dedupes). */
export interface AuthorizeCall {
  merchantId: string;
  idempotencyKey: string;
  reference: string;
  amount: number;
  currency: string;
  capture: boolean;
  card: { number: string; expMonth: number; expYear: number };
  threeDs?: Record<string, unknown>;
  delayMs?: number;
  /** Where the shopper comes back after the acquirer's authentication page: asks for a step-up. */
  returnUrl?: string;
  /** The acquirer as reached from outside, for the page's address. */
  baseUrl?: string;
}

export interface ReversalCall {
  merchantId: string;
  idempotencyKey: string;
  originalIdempotencyKey: string;
  amount: number;
  currency: string;
}

export interface FollowUpCall {
  merchantId: string;
  idempotencyKey: string;
  transactionId: string;
  amount: number;
  currency: string;
}

const ok = (body: unknown): StoredAnswer => ({ status: 200, body });

export async function authorize(state: AcquirerBook, call: AuthorizeCall): Promise<StoredAnswer> {
  // The reference is assigned on receipt, so a lookup can name a call that is still being processed.
  const id = acquirerId('acq');
  state.beginAuthorization(call.merchantId, call.idempotencyKey, { id, amount: call.amount, currency: call.currency });
  try {
    return await authorizeReceived(state, call, id);
  } finally {
    state.endAuthorization(call.merchantId, call.idempotencyKey);
  }
}

async function authorizeReceived(state: AcquirerBook, call: AuthorizeCall, id: string): Promise<StoredAnswer> {
  const behaviour: CardBehaviour = testCards[call.card.number] ?? { kind: 'approve' };
  const entry = {
    merchantId: call.merchantId,
    idempotencyKey: call.idempotencyKey,
    operation: 'authorize' as const,
    amount: call.amount,
    currency: call.currency,
    reference: call.reference,
    cardLast4: call.card.number.slice(-4),
    threeDs: call.threeDs === undefined ? null : JSON.stringify(call.threeDs),
  };
  const decline = (code: string, message: string) => {
    state.record({ ...entry, outcome: 'declined', code, transactionId: id, disputeOpened: null });
    return ok({ id, status: 'declined', code, message });
  };

  if (!passesLuhn(call.card.number)) return decline('incorrect_number', 'The card number is not valid');
  if (!isExpiryInFuture(call.card.expMonth, call.card.expYear, new Date()))
    return decline('expired_card', 'The card has expired');

  const threeDs = judgeThreeDs(call.threeDs);
  if (threeDs === 'invalid')
    return decline('invalid_authentication_data', 'A Y or A 3DS 2.x result must carry dsTransID');
  if (threeDs === 'failed') return decline('authentication_failed', '3-D Secure authentication failed');
  if (behaviour.kind === 'requires_3ds' && threeDs !== 'authenticated' && call.returnUrl) {
    if (state.isReversed(call.merchantId, call.idempotencyKey))
      return decline('authorization_reversed', 'This idempotency key was reversed; nothing was charged');
    return startStepUp(state, entry, {
      id,
      returnUrl: call.returnUrl,
      capture: call.capture,
      cardFingerprint: state.cardFingerprint(call.card.number),
      baseUrl: call.baseUrl ?? '',
    });
  }
  if (behaviour.kind === 'requires_3ds' && threeDs !== 'authenticated') {
    state.record({
      ...entry,
      outcome: 'requires_3ds',
      code: 'authentication_required',
      transactionId: null,
      disputeOpened: null,
    });
    return ok({
      status: 'requires_3ds',
      code: 'authentication_required',
      message: 'This card requires 3-D Secure authentication',
    });
  }
  if (behaviour.kind === 'decline') return decline(behaviour.code, behaviour.message);
  if (behaviour.kind === 'timeout') await delay(call.delayMs ?? defaultTimeoutDelayMs, undefined, { ref: false });
  await state.waitIfHeld({
    merchantId: call.merchantId,
    idempotencyKey: call.idempotencyKey,
    cardNumber: call.card.number,
  });
  // Checked last, after the hold: a reversal that arrived while this call was in flight wins.
  if (state.isReversed(call.merchantId, call.idempotencyKey)) {
    return decline(
      'authorization_reversed',
      'This idempotency key was reversed before the authorization completed; nothing was charged',
    );
  }

  const transaction: Transaction = {
    id,
    merchantId: call.merchantId,
    idempotencyKey: call.idempotencyKey,
    reference: call.reference,
    currency: call.currency,
    cardFingerprint: state.cardFingerprint(call.card.number),
    cardLast4: call.card.number.slice(-4),
    ...(behaviour.kind === 'dispute' ? { disputesOnCapture: true } : {}),
    authorizedAmount: call.amount,
    capturedAmount: call.capture ? call.amount : 0,
    refundedAmount: 0,
    status: call.capture ? 'captured' : 'authorized',
  };
  if (call.capture && behaviour.kind === 'dispute')
    transaction.disputeOpened = { reason: 'fraudulent', amount: call.amount };
  state.addTransaction(transaction);
  state.record({
    ...entry,
    outcome: 'approved',
    code: null,
    transactionId: transaction.id,
    disputeOpened: transaction.disputeOpened ?? null,
  });
  if (behaviour.kind === 'error_after_charge')
    return {
      status: 500,
      body: { status: 'failed', code: 'internal_error', message: 'The acquirer failed after charging the card' },
    };
  return ok({
    id: transaction.id,
    status: 'approved',
    captured: call.capture,
    ...(transaction.disputeOpened ? { disputeOpened: transaction.disputeOpened } : {}),
  });
}

/** authenticated (Y/A with what 2.x needs), failed (N/R), invalid (Y/A 2.x without dsTransID), or none. */
function judgeThreeDs(values: Record<string, unknown> | undefined): 'authenticated' | 'failed' | 'invalid' | 'none' {
  if (!values) return 'none';
  const status = values.transStatus;
  if (status === 'N' || status === 'R') return 'failed';
  if (status !== 'Y' && status !== 'A') return 'none';
  const version = typeof values.messageVersion === 'string' ? values.messageVersion : '';
  if (version.startsWith('2') && (typeof values.dsTransID !== 'string' || values.dsTransID.length === 0))
    return 'invalid';
  return 'authenticated';
}

export function followUp(
  state: AcquirerBook,
  operation: Exclude<Operation, 'authorize'>,
  call: FollowUpCall,
): StoredAnswer {
  const transaction = state.transactions.get(call.transactionId);
  const entry = {
    merchantId: call.merchantId,
    idempotencyKey: call.idempotencyKey,
    operation,
    amount: call.amount,
    currency: call.currency,
    reference: transaction?.reference ?? '',
    transactionId: transaction?.id ?? null,
    cardLast4: transaction?.cardLast4 ?? null,
    threeDs: null,
  };
  const fail = (status: number, code: string, message: string) => {
    if (transaction) state.record({ ...entry, outcome: 'failed', code, disputeOpened: null });
    return { status, body: { status: 'failed', code, message } };
  };
  if (!transaction || transaction.merchantId !== call.merchantId)
    return fail(404, 'transaction_not_found', 'No such authorization for this merchant');
  if (call.currency !== transaction.currency)
    return fail(200, 'currency_mismatch', `The authorization is in ${transaction.currency}`);
  if (operation !== 'void' && call.amount <= 0) return fail(200, 'invalid_amount', 'The amount must be positive');
  // A step-up that is still waiting or was declined never authorized anything.
  if (transaction.status === 'requires_action' || transaction.status === 'declined')
    return fail(404, 'transaction_not_found', 'No approved authorization under this id');
  if (transaction.status === 'reversed') return fail(200, 'already_reversed', 'The authorization was reversed');

  switch (operation) {
    case 'capture': {
      if (transaction.status === 'voided') return fail(200, 'already_voided', 'The authorization was voided');
      if (transaction.status === 'captured')
        return fail(200, 'already_captured', 'The authorization was already captured');
      if (call.amount > transaction.authorizedAmount)
        return fail(200, 'amount_exceeds_authorization', 'Capture above the authorized amount');
      transaction.status = 'captured';
      transaction.capturedAmount = call.amount;
      if (transaction.disputesOnCapture) transaction.disputeOpened = { reason: 'fraudulent', amount: call.amount };
      break;
    }
    case 'void': {
      if (transaction.status === 'voided') return fail(200, 'already_voided', 'The authorization was already voided');
      if (transaction.status === 'captured')
        return fail(200, 'already_captured', 'A captured charge cannot be voided; refund it');
      transaction.status = 'voided';
      break;
    }
    case 'refund': {
      if (transaction.status !== 'captured') return fail(200, 'not_captured', 'Only a captured charge can be refunded');
      if (transaction.refundedAmount + call.amount > transaction.capturedAmount)
        return fail(200, 'refund_exceeds_capture', 'Refunds would exceed the captured amount');
      transaction.refundedAmount += call.amount;
      const refundId = acquirerId('acqre');
      state.record({ ...entry, outcome: 'succeeded', code: null, disputeOpened: null });
      return ok({ id: refundId, status: 'succeeded' });
    }
  }
  const disputeOpened = operation === 'capture' ? transaction.disputeOpened : undefined;
  state.record({ ...entry, outcome: 'succeeded', code: null, disputeOpened: disputeOpened ?? null });
  return ok({ id: transaction.id, status: 'succeeded', ...(disputeOpened ? { disputeOpened } : {}) });
}

/**
 * Undoes whatever the authorization sent under `originalIdempotencyKey` did: voids it when only
 * authorized, refunds what is left of it when captured. With no charge under the key yet (never
 * received, declined, or still in flight) the key is marked so that it never charges later.
 * Reversing an already reversed or voided authorization succeeds with nothing more to undo.
 */
export function reverse(state: AcquirerBook, call: ReversalCall): StoredAnswer {
  state.markReversed(call.merchantId, call.originalIdempotencyKey);
  const transaction = state.transactionByKey(call.merchantId, call.originalIdempotencyKey);
  const entry = {
    merchantId: call.merchantId,
    idempotencyKey: call.idempotencyKey,
    operation: 'reversal' as const,
    currency: call.currency,
    reference: transaction?.reference ?? '',
    transactionId: transaction?.id ?? null,
    cardLast4: transaction?.cardLast4 ?? null,
    threeDs: null,
    disputeOpened: null,
  };
  if (!transaction) {
    state.record({ ...entry, outcome: 'succeeded', code: 'nothing_to_reverse', amount: 0 });
    return ok({ status: 'succeeded', reversed: false, amount: 0 });
  }
  if (transaction.currency !== call.currency) {
    state.record({ ...entry, outcome: 'failed', code: 'currency_mismatch', amount: 0 });
    return ok({
      status: 'failed',
      code: 'currency_mismatch',
      message: `The authorization is in ${transaction.currency}`,
    });
  }
  if (transaction.status === 'requires_action' || transaction.status === 'declined') {
    // A pending step-up is canceled: the key is already marked, so a later approval on the page is refused.
    if (transaction.status === 'requires_action') transaction.status = 'reversed';
    state.record({ ...entry, outcome: 'succeeded', code: 'nothing_to_reverse', amount: 0 });
    return ok({ status: 'succeeded', reversed: false, amount: 0 });
  }
  let amount = 0;
  if (transaction.status === 'authorized') amount = transaction.authorizedAmount;
  if (transaction.status === 'captured') {
    amount = transaction.capturedAmount - transaction.refundedAmount;
    transaction.refundedAmount = transaction.capturedAmount;
  }
  if (transaction.status !== 'voided') transaction.status = 'reversed';
  state.record({ ...entry, outcome: 'succeeded', code: null, amount });
  return ok({ status: 'succeeded', reversed: true, id: transaction.id, amount });
}
