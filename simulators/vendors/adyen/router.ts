import express from 'express';
import { z } from 'zod';
import { isAuthenticationOnly, processAuthenticationOnly } from './authenticationOnly';
import { behaviourOf, passesLuhn } from './cards';
import { modificationBodySchema, modificationKinds, processModification, type ModificationKind } from './modifications';
import type { NotificationSender } from './notifications';
import { paymentBodySchema, processPayment, type Processed } from './payments';
import { detailsBodySchema, processDetails } from './redirect';
import type { AdyenSimulatorState, StoredAnswer } from './state';

/**
 * Checkout API v71 as the simulator serves it (mounted at /v71 and /checkout/v71, so the test and
 * live path shapes both work). Per request: API key, then the idempotency key (a stored answer is
 * replayed whatever the body; a key still in progress is refused with 704), then the body. Only
 * processed (2xx) answers are stored; a request refused as invalid leaves its key unused.
 */
export interface ObservedExchange {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  status?: number;
  responseBody?: unknown;
}

export interface CheckoutRouterOptions {
  /** How long the answer-lost and slow cards hold (ms). */
  holdMs: number;
  /** Accepted API keys; any non-empty key when absent. */
  apiKeys?: readonly string[];
  /** Sees every request as it arrives and every answer as it leaves (tests check them against Adyen's schemas). */
  onRequest?: (exchange: ObservedExchange) => void;
  onResponse?: (exchange: ObservedExchange) => void;
  /** The simulator's own URL, for redirect actions. */
  baseUrl: () => string;
}

export function createCheckoutRouter(
  state: AdyenSimulatorState,
  sender: NotificationSender,
  options: CheckoutRouterOptions,
): express.Router {
  const router = express.Router();

  router.post('/payments', async (req, res) => {
    await idempotent(req, res, async (body) => {
      const parsed = parse(paymentBodySchema, body);
      if ('refusal' in parsed) return parsed.refusal;
      const card = parsed.data.paymentMethod.number;
      if (!passesLuhn(card)) return serviceError(422, '101', 'Invalid card number', 'validation');
      const behaviour = behaviourOf(card).kind;
      if (behaviour === 'server_error') return serviceError(500, '000', 'Internal error', 'internal');
      if (behaviour === 'slow') await sleep(holdFor(parsed.data.merchantAccount));
      if (isAuthenticationOnly(body)) return processAuthenticationOnly(state, parsed.data, options.baseUrl());
      return processPayment(state, parsed.data, options.baseUrl(), new Date());
    });
  });

  /** Side-effect free; the engine's lookup sends it to close an unused key (docs/processors-adyen.md). */
  router.post('/paymentMethods', async (req, res) => {
    await idempotent(req, res, (body) => {
      const parsed = parse(paymentMethodsBodySchema, body);
      if ('refusal' in parsed) return parsed.refusal;
      return { answer: { status: 200, body: { paymentMethods: cardPaymentMethods } }, notifications: [] };
    });
  });

  router.post('/payments/details', async (req, res) => {
    await idempotent(req, res, (body) => {
      const parsed = parse(detailsBodySchema, body);
      if ('refusal' in parsed) return parsed.refusal;
      return (
        processDetails(state, parsed.data, new Date()) ??
        serviceError(422, '101', 'Invalid payload provided: redirectResult names no redirected payment', 'validation')
      );
    });
  });

  router.post('/payments/:pspReference/:action', async (req, res) => {
    const action = String(req.params.action) as ModificationKind;
    if (!modificationKinds.includes(action)) {
      reply(res, 404, serviceError(404, '000', 'Not found', 'validation').answer.body);
      return;
    }
    await idempotent(req, res, (body) => {
      const parsed = parse(modificationBodySchema, body);
      if ('refusal' in parsed) return parsed.refusal;
      return processModification(state, action, String(req.params.pspReference), parsed.data, new Date());
    });
  });

  function holdFor(merchantAccount: string | undefined): number {
    return (merchantAccount === undefined ? undefined : state.holdFor(merchantAccount)) ?? options.holdMs;
  }

  function reply(res: express.Response, status: number, body: unknown, headers: Record<string, string> = {}) {
    const exchange = res.locals.exchange as ObservedExchange | undefined;
    if (exchange) options.onResponse?.({ ...exchange, status, responseBody: body });
    res.status(status).set(headers).json(body);
  }

  async function idempotent(
    req: express.Request,
    res: express.Response,
    run: (body: unknown) => Promise<Processed> | Processed,
  ) {
    const exchange: ObservedExchange = {
      method: req.method,
      path: req.originalUrl,
      headers: req.headers,
      body: req.body,
    };
    res.locals.exchange = exchange;
    options.onRequest?.(exchange);
    const apiKey = req.get('x-api-key');
    if (!apiKey || (options.apiKeys && !options.apiKeys.includes(apiKey))) {
      reply(res, 401, serviceError(401, '000', 'HTTP Status Response - Unauthorized', 'security').answer.body);
      return;
    }
    const account = merchantAccountOf(req);
    if (account !== undefined && state.isDown(account)) {
      // Adyen's transient error: nothing processed, the key stays unused (Transient-Error: true).
      const down = serviceError(500, '000', 'Unable to process the request: no connection available', 'internal');
      reply(res, 500, down.answer.body, { 'transient-error': 'true' });
      return;
    }
    const key = req.get('idempotency-key');
    const echo: Record<string, string> = key ? { 'idempotency-key': key } : {};
    if (key) {
      const stored = state.storedAnswer(apiKey, key);
      if (stored) return reply(res, stored.status, stored.body, echo);
      if (state.isInProgress(apiKey, key)) {
        const busy = serviceError(422, '704', 'request already processed or in progress', 'validation');
        return reply(res, 422, busy.answer.body, { ...echo, 'transient-error': 'true' });
      }
      state.begin(apiKey, key);
    }
    let processed: Processed;
    try {
      processed = await run(req.body);
    } catch (error) {
      if (key) state.finish(apiKey, key);
      throw error;
    }
    const answer: StoredAnswer = processed.answer;
    const stored = answer.status >= 200 && answer.status < 300;
    if (key) state.finish(apiKey, key, stored ? answer : undefined);
    const notified = processed.merchantAccount ?? account;
    if (notified !== undefined) sender.enqueue(notified, processed.notifications);
    if (stored && behaviourHolds(req)) await sleep(holdFor(account));
    if (stored && cardBehaviour(req) === 'error_after_charge') {
      const failed = serviceError(500, '000', 'Internal error', 'internal').answer;
      return reply(res, failed.status, failed.body, echo);
    }
    reply(res, answer.status, answer.body, echo);
  }

  return router;
}

function merchantAccountOf(req: express.Request): string | undefined {
  const merchantAccount = (req.body as { merchantAccount?: unknown } | undefined)?.merchantAccount;
  return typeof merchantAccount === 'string' ? merchantAccount : undefined;
}

const paymentMethodsBodySchema = z.object({ merchantAccount: z.string().min(1) });
const cardPaymentMethods = [{ brands: ['visa', 'mc'], name: 'Cards', type: 'scheme' }];

/** The answer-lost card: processed and stored, but the answer comes too late for the caller. */
function behaviourHolds(req: express.Request): boolean {
  return cardBehaviour(req) === 'answer_lost';
}

/** What the card of a POST /payments asks for (undefined on other paths). */
function cardBehaviour(req: express.Request): string | undefined {
  const number = (req.body as { paymentMethod?: { number?: unknown } } | undefined)?.paymentMethod?.number;
  return req.path === '/payments' && typeof number === 'string' ? behaviourOf(number).kind : undefined;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): { data: T } | { refusal: Processed } {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  return {
    refusal: serviceError(422, '000', `Field '${field}' is invalid: ${issue?.message ?? ''}`.trim(), 'validation'),
  };
}

export function serviceError(status: number, errorCode: string, message: string, errorType: string): Processed {
  return { answer: { status, body: { status, errorCode, message, errorType } }, notifications: [] };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
