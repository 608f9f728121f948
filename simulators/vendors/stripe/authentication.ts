import express from 'express';
import { stripeTestCards } from './cards';
import { chargeIntent } from './operations';
import type { StripeSimulatorState } from './state';

/**
 * The 3-D Secure page a `redirect_to_url` next action points at (GET), and its form (POST
 * `outcome=approve|fail`): the first submit settles the PaymentIntent as Stripe would after the
 * shopper's authentication (succeeded or requires_capture; requires_payment_method with
 * last_payment_error on failure or on the card's decline after authentication), sends the matching
 * `payment_intent.*` event, then redirects (303) to the return_url with `payment_intent`,
 * `payment_intent_client_secret` and `redirect_status`. A later submit only redirects again.
 */
export function createAuthenticationRouter(state: StripeSimulatorState): express.Router {
  const router = express.Router();

  router.get('/_simulator/authenticate/:token', (req, res) => {
    const found = state.authentication(String(req.params.token));
    if (!found) return void res.status(404).type('text/plain').send('No such authentication');
    const intent = found.account.intents.get(found.pending.intentId)!;
    const action = `/_simulator/authenticate/${encodeURIComponent(String(req.params.token))}`;
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3D Secure 2 Test Page</title></head>
<body>
<h1>3D Secure 2 Test Page</h1>
<p>Payment of ${Number(intent.amount)} ${String(intent.currency).toUpperCase()} (simulated Stripe, test mode).</p>
<form method="post" action="${action}">
<button type="submit" name="outcome" value="approve">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</form>
</body></html>`);
  });

  router.post('/_simulator/authenticate/:token', (req, res) => {
    const found = state.authentication(String(req.params.token));
    const outcome = (req.body as { outcome?: unknown } | undefined)?.outcome;
    if (!found) return void res.status(404).type('text/plain').send('No such authentication');
    if (outcome !== 'approve' && outcome !== 'fail')
      return void res.status(400).type('text/plain').send('outcome must be approve or fail');
    const { account, pending } = found;
    const intent = account.intents.get(pending.intentId)!;
    if (!pending.settled && intent.status === 'requires_action') {
      pending.settled = true;
      const declineAfter = stripeTestCards[pending.card.number];
      const decline = declineAfter?.kind === 'requires_3ds' ? declineAfter.declineAfter : undefined;
      if (outcome === 'approve' && !decline) {
        chargeIntent(account, intent, pending.card);
        account.notify(
          intent.capture_method === 'automatic'
            ? 'payment_intent.succeeded'
            : 'payment_intent.amount_capturable_updated',
          intent,
        );
      } else {
        Object.assign(intent, {
          status: 'requires_payment_method',
          next_action: null,
          last_payment_error: decline
            ? { type: 'card_error', code: 'card_declined', decline_code: decline.declineCode, message: decline.message }
            : {
                type: 'invalid_request_error',
                code: 'payment_intent_authentication_failure',
                message:
                  'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
              },
        });
        account.notify('payment_intent.payment_failed', intent);
      }
    }
    const target = new URL(pending.returnUrl);
    target.searchParams.set('payment_intent', String(intent.id));
    target.searchParams.set('payment_intent_client_secret', String(intent.client_secret));
    target.searchParams.set('redirect_status', redirectStatus(String(intent.status)));
    res.redirect(303, target.toString());
  });

  return router;
}

function redirectStatus(status: string): string {
  if (status === 'succeeded' || status === 'requires_capture') return 'succeeded';
  if (status === 'processing') return 'pending';
  return 'failed';
}
