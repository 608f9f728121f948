import { randomBytes } from 'node:crypto';
import express from 'express';
import { z } from 'zod';
import { authenticationOnlyDetails } from './authenticationOnly';
import { paymentNotifications, type Processed } from './payments';
import type { AdyenSimulatorState, SimPayment } from './state';

/**
 * The redirect flow of the simulator's 3-D Secure cards. GET /simulator/redirect/:pspReference is
 * the page a RedirectShopper action points at (approve / fail, a plain form); its first submit
 * records the shopper's answer and redirects (303) to the payment's returnUrl with a
 * `redirectResult`; a later submit redirects again with the same one and changes nothing.
 * POST /payments/details with that redirectResult decides the payment once (Authorised, or
 * Refused 11 "3D Not Authenticated") and sends its AUTHORISATION notification; a repeated call
 * answers the same, with no second notification.
 */
export function createRedirectPageRouter(state: AdyenSimulatorState): express.Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });

  router.get('/simulator/redirect/:pspReference', (req, res) => {
    const payment = redirected(state, String(req.params.pspReference));
    if (!payment) return void res.status(404).type('text/plain').send('No payment waits for authentication here');
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3D Secure authentication</title></head>
<body>
<h1>3D Secure authentication (simulated Adyen, test mode)</h1>
<p>Payment ${payment.pspReference}: ${payment.amount.value} ${payment.amount.currency} in minor units.</p>
<form method="post" action="/simulator/redirect/${payment.pspReference}">
<button type="submit" name="outcome" value="approve">Authenticate</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</form>
</body></html>`);
  });

  router.post('/simulator/redirect/:pspReference', form, (req, res) => {
    const payment = redirected(state, String(req.params.pspReference));
    const outcome = (req.body as { outcome?: unknown } | undefined)?.outcome;
    if (!payment) return void res.status(404).type('text/plain').send('No payment waits for authentication here');
    if (outcome !== 'approve' && outcome !== 'fail')
      return void res.status(400).type('text/plain').send('outcome must be approve or fail');
    payment.redirect ??= {
      authenticated: outcome === 'approve',
      // Opaque to the merchant, as Adyen's: it names the payment and this authentication.
      redirectResult: Buffer.from(`${payment.pspReference}:${randomBytes(12).toString('hex')}`).toString('base64url'),
    };
    const target = new URL(payment.returnUrl!);
    target.searchParams.set('redirectResult', payment.redirect.redirectResult);
    res.redirect(303, target.toString());
  });

  return router;
}

/** A payment answered with RedirectShopper (it has a returnUrl then), found by its pspReference. */
function redirected(state: AdyenSimulatorState, pspReference: string): SimPayment | undefined {
  const payment = state.payments.get(pspReference);
  return payment?.returnUrl === undefined ? undefined : payment;
}

export const detailsBodySchema = z.object({
  details: z.object({ redirectResult: z.string().min(1).max(20_000) }),
  paymentData: z.string().max(200_000).optional(),
});

export function processDetails(
  state: AdyenSimulatorState,
  body: z.infer<typeof detailsBodySchema>,
  now: Date,
): Processed | undefined {
  const pspReference = Buffer.from(body.details.redirectResult, 'base64url').toString('utf8').split(':')[0] ?? '';
  const payment = state.payments.get(pspReference);
  if (!payment?.redirect || payment.redirect.redirectResult !== body.details.redirectResult) return undefined;
  if (payment.details) return { answer: payment.details, notifications: [], merchantAccount: payment.merchantAccount };
  if (payment.authenticationOnly) return authenticationOnlyDetails(payment, payment.redirect.authenticated);
  const authorised = payment.redirect.authenticated && !payment.cancelled;
  const refusal = authorised ? undefined : { refusalReasonCode: '11', refusalReason: '3D Not Authenticated' };
  payment.resultCode = authorised ? 'Authorised' : payment.cancelled ? 'Cancelled' : 'Refused';
  if (authorised && !payment.manualCapture) payment.captured = payment.amount.value;
  payment.details = {
    status: 200,
    body: {
      ...(authorised ? { additionalData: { authCode: String(100000 + (now.getTime() % 900000)) } } : {}),
      amount: payment.amount,
      merchantReference: payment.reference,
      pspReference: payment.pspReference,
      ...(refusal && !payment.cancelled ? refusal : {}),
      resultCode: payment.resultCode,
    },
  };
  return {
    answer: payment.details,
    notifications: paymentNotifications(payment, refusal?.refusalReason, now),
    merchantAccount: payment.merchantAccount,
  };
}
