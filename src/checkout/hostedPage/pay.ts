import type { BrowserInfo } from '../../processors/types';
import type { Client } from '@temporalio/client';
import type { Config } from '../../config';
import { tokenizeCard } from '../../commerce/paymentInstruments';
import type { Db } from '../../db/prisma';
import { isFreeCart, paymentFlowFor } from '../../payments/paymentRequest';
import { outcomeFromRow, runPayment } from '../../payments/startPayment';
import { rejection, type PaymentOutcome } from '../../payments/workflowTypes';
import { paymentSessionId } from '../../threeds/returnLink';
import type { CardFields } from './cardForm';
import { attemptInstrumentId, attemptPaymentId } from './links';
import type { HostedSession } from './pageData';

export interface HostedPayDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  config: Config;
}

export interface HostedPayRequest {
  session: HostedSession;
  attemptId: string;
  /** Null only when the session's total is 0 (nothing to charge). */
  card: CardFields | null;
  /** The shopper's own address: here the browser is the cardholder's. */
  clientIp: string | null;
  /** The origin the shopper is on: the engine-run 3-D Secure return link is built on it when PUBLIC_BASE_URL is unset. */
  origin: string;
  /** The page the browser comes back to after a challenge or a processor's step-up (the result page). */
  returnUrl: string;
  /** The shopper's browser as its request headers describe it, for 3-D Secure 2. */
  browserInfo?: BrowserInfo;
}

/**
 * Vaults the card and runs the session's payment as pay-v2 does (same workflow, same checkout
 * claim), under a payment id derived from the session and the form's attempt id: every post of one
 * form (a double click, a reload, ten at once) starts or joins ONE payment workflow, and another
 * attempt of the same session is refused by the session's claim while one is in flight. A repeat
 * whose payment exists is answered from it without vaulting the card again.
 */
export async function payHostedSession(deps: HostedPayDeps, request: HostedPayRequest): Promise<PaymentOutcome> {
  const { session } = request;
  const scope = { accountId: session.accountId, mode: session.mode };
  const paymentId = attemptPaymentId(scope.accountId, scope.mode, session.id, request.attemptId);
  const existing = await outcomeFromRow(deps.db, paymentId);
  if (existing?.kind === 'payment' && existing.status !== 'processing') return existing;
  const charges = !isFreeCart({ amount: session.total, checkoutSessionId: session.id });
  const paymentInstrumentId = charges ? await vaultCard(deps, request, scope) : null;
  // The page names no flow: the store's default pays (paymentRequest.ts); a free cart records none.
  const paymentFlowId = charges ? paymentFlowFor(null, session.store) : null;
  if (charges && !paymentFlowId) {
    return rejection('invalid', 'PAYMENT_FLOW_REQUIRED', 'The store has no default payment flow');
  }
  return runPayment(
    {
      db: deps.db,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      responseTimeoutMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS,
    },
    {
      paymentId,
      ...scope,
      storeId: session.storeId,
      customerId: session.customerId,
      paymentInstrumentId,
      amount: session.total,
      currency: session.currency,
      intent: 'purchase',
      initiatedBy: 'customer',
      source: 'checkout',
      paymentFlowId,
      threedsSessionId: null,
      returnBaseUrl: request.origin,
      checkoutSessionId: session.id,
      clientIp: request.clientIp,
      blikCode: null,
      // A processor's step-up sends the browser back here, with paymentId and status.
      returnUrl: request.returnUrl,
      ...(request.browserInfo ? { browserInfo: request.browserInfo } : {}),
    },
  );
}

async function vaultCard(
  deps: HostedPayDeps,
  request: HostedPayRequest,
  scope: { accountId: string; mode: 'test' | 'live' },
) {
  const id = attemptInstrumentId(scope.accountId, scope.mode, request.session.id, request.attemptId);
  const found = await deps.db.paymentInstrument.findUnique({ where: { id } });
  if (found) return found.id;
  const { number, expMonth, expYear, cardholderName } = request.card!;
  try {
    return (
      await tokenizeCard(deps.db, deps.config, scope, {
        id,
        customerId: request.session.customerId,
        card: { number, expMonth, expYear, cardholderName },
      })
    ).id;
  } catch (error) {
    // A concurrent post of the same form vaulted it first.
    if ((error as { code?: string } | null)?.code === 'P2002') return id;
    throw error;
  }
}

/**
 * The engine-run 3-D Secure challenge of a payment returns to its session's `returnUrl`
 * (`/threeds/{id}/return` answers a 303 there with the payment's id and status): the payment's own
 * 3DS session is made to point back at the hosted page before the browser is sent to the bank.
 * Only a session of this payment that has no return URL yet is touched.
 */
export async function returnChallengeToPage(db: Db, paymentId: string, returnUrl: string): Promise<void> {
  await db.threeDsSession.updateMany({
    where: { id: paymentSessionId(paymentId), paymentId, returnUrl: null },
    data: { returnUrl },
  });
}

/** A payment of this session (never another session's, whatever the link says). */
export function findSessionPayment(db: Db, sessionId: string, paymentId: string) {
  return db.payment.findFirst({ where: { id: paymentId, checkoutSessionId: sessionId } });
}
