import { randomBytes } from 'node:crypto';
import express from 'express';
import type { AcquirerBook, AcquirerState, LedgerEntry, StoredAnswer, Transaction } from './state';

/**
 * Acquirer-hosted 3-D Secure (step-up). An authorization that carries a `returnUrl` on a card that
 * asks for authentication is kept pending (`requires_action`, no charge) and answered with the page
 * the shopper must visit:
 * - GET /authenticate/:id/:token: a small HTML page with Complete / Fail authentication buttons;
 * - POST the same with `outcome=approve|fail` (form-encoded): the FIRST submit settles the
 *   authorization (approve: authorized or captured as the call asked; fail: declined
 *   `authentication_failed`), then 303 to the returnUrl; a later submit only redirects. A reversal
 *   of the authorization's key cancels the pending authorization first: a submit after it charges
 *   nothing.
 * The outcome is read with GET /v1/authorizations/:id (lookup.ts), as an engine does after the return.
 */
export type AuthenticationEntry = Omit<
  LedgerEntry,
  'id' | 'createdAt' | 'outcome' | 'code' | 'transactionId' | 'disputeOpened'
>;

export interface StepUpStart {
  id: string;
  returnUrl: string;
  capture: boolean;
  cardFingerprint: string;
  /** Where the acquirer is reached from outside (protocol, host and mount path). */
  baseUrl: string;
}

/** Keeps the authorization pending and answers where to send the shopper. */
export function startStepUp(book: AcquirerBook, entry: AuthenticationEntry, start: StepUpStart): StoredAnswer {
  const token = randomBytes(16).toString('hex');
  book.addTransaction({
    id: start.id,
    merchantId: entry.merchantId,
    idempotencyKey: entry.idempotencyKey,
    reference: entry.reference,
    currency: entry.currency,
    cardFingerprint: start.cardFingerprint,
    cardLast4: entry.cardLast4 ?? '',
    authorizedAmount: entry.amount,
    capturedAmount: 0,
    refundedAmount: 0,
    status: 'requires_action',
    stepUp: { token, returnUrl: start.returnUrl, capture: start.capture },
  });
  book.record({ ...entry, outcome: 'requires_action', code: null, transactionId: start.id, disputeOpened: null });
  return {
    status: 200,
    body: {
      id: start.id,
      status: 'requires_action',
      action: { url: `${start.baseUrl}/authenticate/${start.id}/${token}`, method: 'GET' },
    },
  };
}

/** The shopper's choice on the page; only a transaction still waiting (and whose key was not reversed) moves. */
export function settleStepUp(book: AcquirerBook, transaction: Transaction, outcome: 'approve' | 'fail'): void {
  if (transaction.status !== 'requires_action' || !transaction.stepUp) return;
  if (book.isReversed(transaction.merchantId, transaction.idempotencyKey)) return;
  const entry = {
    merchantId: transaction.merchantId,
    idempotencyKey: transaction.idempotencyKey,
    operation: 'authorize' as const,
    amount: transaction.authorizedAmount,
    currency: transaction.currency,
    reference: transaction.reference,
    transactionId: transaction.id,
    cardLast4: transaction.cardLast4,
    threeDs: null,
    disputeOpened: null,
  };
  if (outcome === 'fail') {
    transaction.status = 'declined';
    transaction.stepUp.declineCode = 'authentication_failed';
    book.record({ ...entry, outcome: 'declined', code: 'authentication_failed' });
    return;
  }
  const capture = transaction.stepUp.capture;
  transaction.status = capture ? 'captured' : 'authorized';
  transaction.capturedAmount = capture ? transaction.authorizedAmount : 0;
  book.record({ ...entry, outcome: 'approved', code: null });
}

export function createAuthenticationRouter(state: AcquirerState): express.Router {
  const router = express.Router();
  const find = (req: express.Request): Transaction | undefined => {
    const transaction = state.transactions.get(String(req.params.id));
    return transaction?.stepUp && transaction.stepUp.token === String(req.params.token) ? transaction : undefined;
  };

  router.get('/authenticate/:id/:token', (req, res) => {
    const transaction = find(req);
    if (!transaction) return void res.status(404).type('text/plain').send('No such authentication');
    const action = `${req.baseUrl}/authenticate/${encodeURIComponent(transaction.id)}/${transaction.stepUp!.token}`;
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox acquirer: 3-D Secure</title></head>
<body>
<h1>Sandbox acquirer: 3-D Secure</h1>
<p>Payment of ${transaction.authorizedAmount} ${transaction.currency} (minor units, test mode).</p>
<form method="post" action="${action}">
<button type="submit" name="outcome" value="approve">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</form>
</body></html>`);
  });

  router.post('/authenticate/:id/:token', (req, res) => {
    const transaction = find(req);
    const outcome = (req.body as { outcome?: unknown } | undefined)?.outcome;
    if (!transaction) return void res.status(404).type('text/plain').send('No such authentication');
    if (outcome !== 'approve' && outcome !== 'fail')
      return void res.status(400).type('text/plain').send('outcome must be approve or fail');
    // Synchronous from the check to the change: of concurrent submits, only the first settles.
    state.transact((book) => settleStepUp(book, transaction, outcome));
    res.redirect(303, transaction.stepUp!.returnUrl);
  });

  return router;
}
