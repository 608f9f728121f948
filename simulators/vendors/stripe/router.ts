import express, { type Request, type Response } from 'express';
import { createAuthenticationRouter } from './authentication';
import { maxHoldMs } from './cards';
import { customerObject, errorBody } from './objects';
import {
  cancelPaymentIntent,
  capturePaymentIntent,
  createPaymentIntent,
  createRefund,
  presentIntent,
  searchPaymentIntents,
  settleRefund,
  closeDispute,
} from './operations';
import { StripeSimulatorState, type StoredAnswer, type StripeAccount } from './state';

/**
 * A simulator of the part of Stripe's API the adapter uses, over real HTTP and at Stripe's own
 * paths (so `credentials.endpoint` points the adapter here): form-encoded requests, Bearer secret
 * keys (one simulated account per key), Stripe's idempotency layer, Stripe's example objects.
 * - POST /v1/payment_intents, /v1/payment_intents/:id/capture, /v1/payment_intents/:id/cancel,
 *   /v1/refunds, /v1/customers; GET /v1/payment_intents/:id, /v1/payment_intents/search
 * - Test controls (not Stripe's): POST /_simulator/outage {secretKey, enabled} (every call 503),
 *   POST /_simulator/hold {secretKey, ms} (how long the hold card waits), GET
 *   /_simulator/requests?secretKey= (every POST as received), GET /_simulator/intents?secretKey=
 *   (PaymentIntents with their charge).
 * - 3-D Secure (authentication.ts): a confirm with a return_url on a 3DS test card answers
 *   requires_action with a redirect_to_url to GET /_simulator/authenticate/:token, whose form settles it.
 * - Webhooks (webhooks.ts): POST /_simulator/webhooks {secretKey, url, webhookSecret} (where the
 *   account's events go, signed), POST /_simulator/pending-refunds {secretKey, settleAfterMs}
 *   (null: pending refunds wait for POST /_simulator/refunds/:id/settle {secretKey, status}),
 *   POST /_simulator/disputes/:id/close {secretKey, status: won | lost} (charge.dispute.closed),
 *   GET /_simulator/events?secretKey= (every event the account sent).
 */
export function createStripeSimulatorRouter(state = new StripeSimulatorState()): express.Router {
  const router = express.Router();

  type Run = (
    account: StripeAccount,
    params: Record<string, unknown>,
    req: Request,
  ) => Promise<StoredAnswer> | StoredAnswer;
  const post = (path: string, run: Run) =>
    router.post(path, (req, res) => {
      const account = authorized(req, res);
      if (account) void idempotent(account, req, res, () => Promise.resolve(run(account, req.body ?? {}, req)));
    });

  post('/v1/payment_intents', (account, params, req) =>
    createPaymentIntent(account, params, `${req.protocol}://${req.get('host') ?? ''}`),
  );
  router.use(createAuthenticationRouter(state));
  post('/v1/payment_intents/:id/capture', (account, params, req) =>
    capturePaymentIntent(account, String(req.params.id), params),
  );
  post('/v1/payment_intents/:id/cancel', (account, params, req) =>
    cancelPaymentIntent(account, String(req.params.id), params),
  );
  post('/v1/refunds', (account, params) => createRefund(account, params));
  post('/v1/customers', (account, params) => {
    const customer = customerObject({
      description: typeof params.description === 'string' ? params.description : undefined,
      metadata: (params.metadata ?? {}) as Record<string, string>,
    });
    account.customers.set(customer.id as string, customer);
    return { status: 200, body: customer };
  });

  router.get('/v1/payment_intents/search', (req, res) => {
    const account = authorized(req, res);
    if (!account) return;
    const found = searchPaymentIntents(account, String(req.query.query ?? ''));
    if (!found)
      return void res
        .status(400)
        .json(errorBody('invalid_request_error', 'The simulator only searches metadata[...]', { param: 'query' }));
    const expand = expands(req, 'data.latest_charge');
    res.json({
      object: 'search_result',
      data: found.map((intent) => presentIntent(account, intent, expand)),
      has_more: false,
      next_page: null,
      url: '/v1/payment_intents/search',
    });
  });

  router.get('/v1/payment_intents/:id', (req, res) => {
    const account = authorized(req, res);
    if (!account) return;
    const intent = account.intents.get(String(req.params.id));
    if (!intent)
      return void res.status(404).json(
        errorBody('invalid_request_error', `No such payment_intent: '${String(req.params.id)}'`, {
          code: 'resource_missing',
          param: 'intent',
        }),
      );
    res.json(presentIntent(account, intent, expands(req, 'latest_charge')));
  });

  router.post('/_simulator/outage', express.json(), (req, res) => {
    const { secretKey, enabled } = (req.body ?? {}) as { secretKey?: unknown; enabled?: unknown };
    if (typeof secretKey !== 'string' || typeof enabled !== 'boolean')
      return void res.status(400).json({ message: 'secretKey (string) and enabled (boolean) are required' });
    state.account(secretKey).outage = enabled;
    res.json({ secretKey, outage: enabled });
  });
  router.post('/_simulator/hold', express.json(), (req, res) => {
    const { secretKey, ms } = (req.body ?? {}) as { secretKey?: unknown; ms?: unknown };
    if (typeof secretKey !== 'string' || !Number.isInteger(ms) || (ms as number) < 0)
      return void res.status(400).json({ message: 'secretKey (string) and ms (integer ≥ 0) are required' });
    state.account(secretKey).holdMs = Math.min(ms as number, maxHoldMs);
    res.json({ secretKey, holdMs: state.account(secretKey).holdMs });
  });
  router.post('/_simulator/webhooks', express.json(), (req, res) => {
    const { secretKey, url, webhookSecret } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof secretKey !== 'string' || typeof url !== 'string' || typeof webhookSecret !== 'string')
      return void res.status(400).json({ message: 'secretKey, url and webhookSecret (strings) are required' });
    state.account(secretKey).webhook = { url, secret: webhookSecret };
    res.status(204).end();
  });
  router.post('/_simulator/pending-refunds', express.json(), (req, res) => {
    const { secretKey, settleAfterMs } = (req.body ?? {}) as { secretKey?: unknown; settleAfterMs?: unknown };
    const valid = settleAfterMs === null || (Number.isInteger(settleAfterMs) && (settleAfterMs as number) >= 0);
    if (typeof secretKey !== 'string' || !valid)
      return void res.status(400).json({ message: 'secretKey (string) and settleAfterMs (integer ≥ 0 or null)' });
    state.account(secretKey).pendingRefundSettleMs = settleAfterMs as number | null;
    res.json({ secretKey, settleAfterMs });
  });
  router.post('/_simulator/refunds/:id/settle', express.json(), (req, res) => {
    const { secretKey, status } = (req.body ?? {}) as { secretKey?: unknown; status?: unknown };
    if (typeof secretKey !== 'string' || (status !== 'succeeded' && status !== 'failed'))
      return void res.status(400).json({ message: 'secretKey (string) and status (succeeded | failed) are required' });
    if (!settleRefund(state.account(secretKey), String(req.params.id), status))
      return void res.status(409).json({ message: `refund ${String(req.params.id)} cannot become ${status}` });
    res.status(204).end();
  });
  router.post('/_simulator/disputes/:id/close', express.json(), (req, res) => {
    const { secretKey, status } = (req.body ?? {}) as { secretKey?: unknown; status?: unknown };
    if (typeof secretKey !== 'string' || (status !== 'won' && status !== 'lost'))
      return void res.status(400).json({ message: 'secretKey (string) and status (won | lost) are required' });
    if (!closeDispute(state.account(secretKey), String(req.params.id), status))
      return void res.status(409).json({ message: `dispute ${String(req.params.id)} is not open` });
    res.status(204).end();
  });
  router.get('/_simulator/events', (req, res) => {
    res.json({ events: state.account(String(req.query.secretKey ?? '')).events });
  });
  router.get('/_simulator/requests', (req, res) => {
    res.json({ requests: state.account(String(req.query.secretKey ?? '')).requests });
  });
  router.get('/_simulator/intents', (req, res) => {
    const account = state.account(String(req.query.secretKey ?? ''));
    res.json({ intents: [...account.intents.values()].map((intent) => presentIntent(account, intent, true)) });
  });

  return router;

  /** Bearer test secret key → its simulated account; an outage answers 503 before anything else. */
  function authorized(req: Request, res: Response): StripeAccount | undefined {
    const key = /^Bearer ((?:sk|rk)_test_\S+)$/.exec(req.header('authorization') ?? '')?.[1];
    if (!key || key.includes('invalid')) {
      res
        .status(401)
        .json(errorBody('invalid_request_error', 'Invalid API Key provided (the simulator takes test keys only)'));
      return undefined;
    }
    const account = state.account(key);
    if (account.outage) {
      res.status(503).json(errorBody('api_error', 'Stripe is temporarily unavailable (simulated outage).'));
      return undefined;
    }
    return account;
  }
}

async function idempotent(
  account: StripeAccount,
  req: Request,
  res: Response,
  run: () => Promise<StoredAnswer>,
): Promise<void> {
  const key = req.header('idempotency-key') ?? null;
  account.requests.push({ method: req.method, path: req.path, idempotencyKey: key, params: req.body ?? {} });
  if (!key) return send(res, await run(), false);
  const answer = account.answerOnce(key, `${req.method} ${req.path} ${JSON.stringify(req.body ?? {})}`, run);
  if (answer === 'in_progress') {
    res
      .status(409)
      .json(
        errorBody(
          'idempotency_error',
          `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
          { code: 'idempotency_key_in_use' },
        ),
      );
    return;
  }
  if (answer === 'mismatch') {
    res
      .status(400)
      .json(
        errorBody(
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        ),
      );
    return;
  }
  send(res, await answer.answer, answer.replayed);
}

function send(res: Response, { status, body }: StoredAnswer, replayed: boolean): void {
  if (replayed) res.setHeader('idempotent-replayed', 'true');
  res.status(status).json(body);
}

function expands(req: Request, field: string): boolean {
  const expand = req.query.expand;
  return (Array.isArray(expand) ? expand : [expand]).includes(field);
}
