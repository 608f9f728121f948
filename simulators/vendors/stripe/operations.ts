import { setTimeout as delay } from 'node:timers/promises';
import { isExpiryInFuture, passesLuhn } from '../../../src/domain/luhn';
import { stripeTestCards, type StripeCardBehaviour } from './cards';
import {
  chargeObject,
  disputeObject,
  errorBody,
  paymentIntentObject,
  refundObject,
  type StripeObject,
} from './objects';
import type { StoredAnswer, StripeAccount } from './state';

/** What the simulated Stripe does with each call (the router has already deduped it by Idempotency-Key). */
type Params = Record<string, unknown>;

const ok = (body: unknown): StoredAnswer => ({ status: 200, body });
const refused = (status: number, type: string, message: string, extra: Parameters<typeof errorBody>[2] = {}) => ({
  status,
  body: errorBody(type, message, extra),
});
const missing = (param: string): StoredAnswer => ({
  ...refused(400, 'invalid_request_error', `Missing required param: ${param}.`, { code: 'parameter_missing', param }),
  notSaved: true,
});
const noSuchIntent = (id: string) =>
  refused(404, 'invalid_request_error', `No such payment_intent: '${id}'`, {
    code: 'resource_missing',
    param: 'intent',
  });

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const integer = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined);
const record = (value: unknown) => (value && typeof value === 'object' ? (value as Params) : undefined);

export async function createPaymentIntent(account: StripeAccount, params: Params, baseUrl = ''): Promise<StoredAnswer> {
  const amount = integer(params.amount);
  const currency = text(params.currency);
  if (!amount) return missing('amount');
  if (!currency || !/^[a-z]{3}$/.test(currency)) return missing('currency');
  const pmData = record(params.payment_method_data);
  const card = record(pmData?.card);
  const number = text(card?.number);
  const expMonth = integer(card?.exp_month);
  const expYear = integer(card?.exp_year);
  if (text(pmData?.type) !== 'card' || !number || !expMonth || !expYear) return missing('payment_method_data[card]');
  const threeDs = record(record(record(params.payment_method_options)?.card)?.three_d_secure);
  if (threeDs)
    for (const field of ['cryptogram', 'transaction_id', 'version'])
      if (!text(threeDs[field])) return missing(`payment_method_options[card][three_d_secure][${field}]`);

  const intent = paymentIntentObject({
    amount,
    currency,
    captureMethod: text(params.capture_method) === 'manual' ? 'manual' : 'automatic',
    metadata: (record(params.metadata) ?? {}) as Record<string, string>,
  });
  if (text(params.confirm) !== 'true') {
    intent.status = 'requires_confirmation';
    return save(account, intent, number);
  }
  const behaviour: StripeCardBehaviour = stripeTestCards[number] ?? { kind: 'approve' };
  if (behaviour.kind === 'error_before_charge')
    return { ...refused(500, 'api_error', 'An unknown error occurred while processing your request.'), notSaved: true };
  const cardError = (code: string, message: string, declineCode?: string) => {
    intent.last_payment_error = {
      type: 'card_error',
      code,
      message,
      ...(declineCode ? { decline_code: declineCode } : {}),
    };
    save(account, intent, number);
    return refused(402, 'card_error', message, {
      code,
      ...(declineCode ? { decline_code: declineCode } : {}),
      payment_intent: intent,
    });
  };
  if (!passesLuhn(number)) return cardError('incorrect_number', 'Your card number is incorrect.');
  if (!isExpiryInFuture(expMonth, expYear, new Date())) return cardError('expired_card', 'Your card has expired.');
  const transStatus = text(threeDs?.ares_trans_status);
  if (transStatus === 'N' || transStatus === 'R')
    return cardError(
      'payment_intent_authentication_failure',
      'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
    );
  if (behaviour.kind === 'decline') return cardError(behaviour.code, behaviour.message, behaviour.declineCode);
  const offSession = text(params.off_session) === 'true';
  if (
    behaviour.kind === 'requires_3ds' &&
    transStatus !== 'Y' &&
    transStatus !== 'A' &&
    !(behaviour.onSessionOnly && offSession)
  ) {
    intent.status = 'requires_action';
    const returnUrl = text(params.return_url);
    // As Stripe: a confirm with a return_url gets a redirect; without one, the SDK's own flow.
    if (returnUrl && !URL.canParse(returnUrl))
      return { ...refused(400, 'invalid_request_error', 'Not a valid URL', { param: 'return_url' }), notSaved: true };
    intent.next_action = returnUrl
      ? {
          type: 'redirect_to_url',
          redirect_to_url: {
            url: `${baseUrl}${authenticationPath(account, intent, returnUrl, { number, expMonth, expYear })}`,
            return_url: returnUrl,
          },
        }
      : { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
    return save(account, intent, number);
  }
  if (behaviour.kind === 'hold') await delay(account.holdMs, undefined, { ref: false });

  chargeIntent(account, intent, { number, expMonth, expYear });
  const answer = save(account, intent, number);
  if (behaviour.kind === 'error_after_charge')
    return refused(500, 'api_error', 'An unknown error occurred while processing your request.');
  return answer;
}

export interface CardOnIntent {
  number: string;
  expMonth: number;
  expYear: number;
}

/** The money moves: a charge, then succeeded (automatic capture) or requires_capture (manual). */
export function chargeIntent(account: StripeAccount, intent: StripeObject, card: CardOnIntent): void {
  const amount = intent.amount as number;
  const charge = chargeObject(intent, { last4: card.number.slice(-4), expMonth: card.expMonth, expYear: card.expYear });
  account.charges.set(charge.id as string, charge);
  intent.latest_charge = charge.id;
  intent.next_action = null;
  if (intent.capture_method === 'automatic') {
    Object.assign(intent, { status: 'succeeded', amount_received: amount });
    Object.assign(charge, { captured: true, amount_captured: amount });
    disputeIfDisputed(account, card.number, charge);
  } else {
    Object.assign(intent, { status: 'requires_capture', amount_capturable: amount });
  }
}

/** Where the simulator serves the authentication page of a requires_action PaymentIntent. */
function authenticationPath(account: StripeAccount, intent: StripeObject, returnUrl: string, card: CardOnIntent) {
  const token = account.openAuthentication({ intentId: intent.id as string, returnUrl, card });
  return `/_simulator/authenticate/${token}`;
}

function save(account: StripeAccount, intent: StripeObject, number: string): StoredAnswer {
  account.intents.set(intent.id as string, intent);
  account.cardOf.set(intent.id as string, number);
  return ok(intent);
}

const unexpectedState = (intent: StripeObject, action: string) =>
  refused(
    400,
    'invalid_request_error',
    `This PaymentIntent's ${action} could not be performed because it has a status of ${String(intent.status)}.`,
    { code: 'payment_intent_unexpected_state', payment_intent: intent },
  );

export function capturePaymentIntent(account: StripeAccount, id: string, params: Params): StoredAnswer {
  const intent = account.intents.get(id);
  if (!intent) return noSuchIntent(id);
  if (intent.status !== 'requires_capture') return unexpectedState(intent, 'capture');
  const capturable = intent.amount_capturable as number;
  const amount = params.amount_to_capture === undefined ? capturable : integer(params.amount_to_capture);
  if (!amount)
    return refused(400, 'invalid_request_error', 'Invalid positive integer', {
      code: 'parameter_invalid_integer',
      param: 'amount_to_capture',
    });
  if (amount > capturable)
    return refused(400, 'invalid_request_error', 'The amount to capture exceeds the amount capturable.', {
      code: 'amount_too_large',
      param: 'amount_to_capture',
    });
  Object.assign(intent, { status: 'succeeded', amount_received: amount, amount_capturable: 0 });
  const charge = account.charges.get(intent.latest_charge as string);
  if (charge) {
    Object.assign(charge, { captured: true, amount_captured: amount });
    disputeIfDisputed(account, account.cardOf.get(id) ?? '', charge);
  }
  return ok(intent);
}

const cancelable = new Set(['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action']);

export function cancelPaymentIntent(account: StripeAccount, id: string, params: Params): StoredAnswer {
  const intent = account.intents.get(id);
  if (!intent) return noSuchIntent(id);
  if (!cancelable.has(intent.status as string)) return unexpectedState(intent, 'cancel');
  Object.assign(intent, {
    status: 'canceled',
    amount_capturable: 0,
    canceled_at: Math.floor(Date.now() / 1000),
    cancellation_reason: text(params.cancellation_reason) ?? null,
    next_action: null,
  });
  return ok(intent);
}

export function createRefund(account: StripeAccount, params: Params): StoredAnswer {
  const id = text(params.payment_intent);
  if (!id) return missing('payment_intent');
  const intent = account.intents.get(id);
  if (!intent) return noSuchIntent(id);
  const charge = account.charges.get(intent.latest_charge as string);
  if (intent.status !== 'succeeded' || !charge) return unexpectedState(intent, 'refund');
  const left = (charge.amount_captured as number) - (charge.amount_refunded as number);
  if (left <= 0)
    return refused(400, 'invalid_request_error', `Charge ${String(charge.id)} has already been refunded.`, {
      code: 'charge_already_refunded',
    });
  const amount = params.amount === undefined ? left : integer(params.amount);
  if (!amount)
    return refused(400, 'invalid_request_error', 'Invalid positive integer', {
      code: 'parameter_invalid_integer',
      param: 'amount',
    });
  if (amount > left)
    return refused(
      400,
      'invalid_request_error',
      `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      { code: 'amount_too_large', param: 'amount' },
    );
  const behaviour = stripeTestCards[account.cardOf.get(id) ?? '']?.kind;
  const refund = refundObject(intent, amount, behaviour === 'refund_pending' ? 'pending' : 'succeeded');
  refund.metadata = (record(params.metadata) ?? {}) as Record<string, string>;
  account.refunds.set(refund.id as string, refund);
  const refunded = (charge.amount_refunded as number) + amount;
  Object.assign(charge, { amount_refunded: refunded, refunded: refunded >= (charge.amount_captured as number) });
  const later = (status: 'succeeded' | 'failed', ms: number | null) => {
    if (ms !== null) setTimeout(() => settleRefund(account, refund.id as string, status), ms).unref();
  };
  if (behaviour === 'refund_pending') later('succeeded', account.pendingRefundSettleMs);
  if (behaviour === 'refund_fails') later('failed', account.pendingRefundSettleMs);
  return ok(refund);
}

/**
 * A refund's later outcome, as Stripe reports it: a pending one succeeds or fails, a succeeded one
 * can still fail (the card was closed). A failed refund gives its amount back to the charge. Sends
 * `refund.failed` (failures), `refund.updated` and `charge.refund.updated`. False when the refund
 * cannot move that way.
 */
export function settleRefund(account: StripeAccount, refundId: string, status: 'succeeded' | 'failed'): boolean {
  const refund = account.refunds.get(refundId);
  const from = refund?.status;
  if (!refund || (status === 'succeeded' ? from !== 'pending' : from !== 'pending' && from !== 'succeeded'))
    return false;
  refund.status = status;
  if (status === 'failed') {
    refund.failure_reason = 'expired_or_canceled_card';
    const charge = account.charges.get(refund.charge as string);
    if (charge) {
      const refunded = (charge.amount_refunded as number) - (refund.amount as number);
      Object.assign(charge, { amount_refunded: refunded, refunded: false });
    }
    account.notify('refund.failed', refund);
  }
  account.notify('refund.updated', refund);
  account.notify('charge.refund.updated', refund);
  return true;
}

function disputeIfDisputed(account: StripeAccount, number: string, charge: StripeObject): void {
  if (stripeTestCards[number]?.kind !== 'disputed') return;
  Object.assign(charge, { disputed: true });
  const dispute = disputeObject(charge, 'fraudulent');
  account.disputes.set(dispute.id as string, dispute);
  account.notify('charge.dispute.created', dispute);
}

/** The dispute's outcome, as Stripe's after the evidence is judged: `charge.dispute.closed`. */
export function closeDispute(account: StripeAccount, disputeId: string, status: 'won' | 'lost'): boolean {
  const dispute = account.disputes.get(disputeId);
  if (!dispute || !['needs_response', 'under_review'].includes(dispute.status as string)) return false;
  Object.assign(dispute, { status });
  account.notify('charge.dispute.closed', dispute);
  return true;
}

/** A PaymentIntent as answered, with `latest_charge` expanded when asked. */
export function presentIntent(account: StripeAccount, intent: StripeObject, expandCharge: boolean): StripeObject {
  if (!expandCharge || typeof intent.latest_charge !== 'string') return intent;
  return { ...intent, latest_charge: account.charges.get(intent.latest_charge) ?? intent.latest_charge };
}

/** The one query form the simulator understands: `metadata['<field>']:'<value>'`. */
export function searchPaymentIntents(account: StripeAccount, query: string): StripeObject[] | undefined {
  const match = /^metadata\['([^']+)'\]:'((?:[^'\\]|\\.)*)'$/.exec(query.trim());
  if (!match) return undefined;
  const [, field, quoted] = match as unknown as [string, string, string];
  const value = quoted.replace(/\\(.)/g, '$1');
  return [...account.intents.values()]
    .filter((intent) => (intent.metadata as Record<string, unknown>)[field] === value)
    .sort((a, b) => (b.created as number) - (a.created as number));
}
