import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { z } from 'zod';
import { NotificationSender } from './notifications';
import { simAmountSchema } from './payments';
import { createRedirectPageRouter } from './redirect';
import { createCheckoutRouter, type CheckoutRouterOptions } from './router';
import { AdyenSimulatorState } from './state';

/**
 * A simulator of Adyen's Checkout API v71 over real HTTP, for the adapter's tests and for staging
 * (point a processor's `endpoint` credential at it). Its answers follow the response schemas of
 * Adyen's OpenAPI document; the cards are in cards.ts. Besides Adyen's paths it serves
 * `/simulator/…` to configure webhooks, the 3-D Secure redirect page (redirect.ts), push any notification (e.g. a CHARGEBACK), switch an account's
 * outage or hold time, and inspect payments.
 */
export interface AdyenSimulatorOptions extends Partial<Omit<CheckoutRouterOptions, 'baseUrl'>> {
  /** Delay before each notification is sent (ms), after the API answer. */
  notificationDelayMs?: number;
}

export interface RunningAdyenSimulator {
  url: string;
  state: AdyenSimulatorState;
  sender: NotificationSender;
  stop(): Promise<void>;
}

const webhookConfigSchema = z.object({
  merchantAccount: z.string().min(1).default('*'),
  url: z.url(),
  hmacKey: z.string().regex(/^(?:[0-9a-fA-F]{2})+$/),
  live: z.boolean().default(false),
});

const pushSchema = z.object({
  merchantAccount: z.string().min(1),
  eventCode: z.string().min(1),
  pspReference: z.string().min(1),
  originalReference: z.string().optional(),
  merchantReference: z.string(),
  amount: simAmountSchema,
  success: z.boolean().default(true),
  reason: z.string().optional(),
});

const outageSchema = z.object({ merchantAccount: z.string().min(1), enabled: z.boolean() });
const holdSchema = z.object({ merchantAccount: z.string().min(1), ms: z.number().int().min(0).max(120_000) });
const paymentsQuerySchema = z.object({ merchantAccount: z.string().min(1), reference: z.string().optional() });

export function createAdyenSimulatorApp(
  state: AdyenSimulatorState,
  sender: NotificationSender,
  options: AdyenSimulatorOptions,
  baseUrl: () => string,
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '256kb' }));
  const checkout = createCheckoutRouter(state, sender, { holdMs: 10_000, ...options, baseUrl });
  app.use('/v71', checkout);
  app.use('/checkout/v71', checkout);

  app.post('/simulator/webhooks', (req, res) => {
    const config = webhookConfigSchema.parse(req.body);
    state.setWebhookTarget(config.merchantAccount, { url: config.url, hmacKey: config.hmacKey, live: config.live });
    res.status(204).end();
  });
  app.post('/simulator/notifications', (req, res) => {
    const push = pushSchema.parse(req.body);
    sender.enqueue(push.merchantAccount, [
      {
        pspReference: push.pspReference,
        ...(push.originalReference ? { originalReference: push.originalReference } : {}),
        merchantAccountCode: push.merchantAccount,
        merchantReference: push.merchantReference,
        eventCode: push.eventCode,
        eventDate: `${new Date().toISOString().slice(0, 19)}+00:00`,
        success: push.success ? 'true' : 'false',
        amount: push.amount,
        ...(push.reason ? { reason: push.reason } : {}),
      },
    ]);
    res.status(202).json({ queued: 1 });
  });
  app.post('/simulator/outage', (req, res) => {
    const { merchantAccount, enabled } = outageSchema.parse(req.body);
    state.setOutage(merchantAccount, enabled);
    res.status(204).end();
  });
  app.post('/simulator/hold', (req, res) => {
    const { merchantAccount, ms } = holdSchema.parse(req.body);
    state.setHold(merchantAccount, ms);
    res.status(204).end();
  });
  /** The ledger of a merchant account, optionally of one merchant reference (the engine's payment id). */
  app.get('/simulator/payments', (req, res) => {
    const { merchantAccount, reference } = paymentsQuerySchema.parse(req.query);
    const payments = [...state.payments.values()].filter(
      (p) => p.merchantAccount === merchantAccount && (reference === undefined || p.reference === reference),
    );
    res.json({ payments });
  });
  app.get('/simulator/payments/:pspReference', (req, res) => {
    const payment = state.payments.get(req.params.pspReference);
    if (!payment) res.status(404).json({ error: 'unknown pspReference' });
    else res.json(payment);
  });
  app.get('/simulator/deliveries', (_req, res) => {
    res.json({ deliveries: sender.deliveries });
  });
  app.use(createRedirectPageRouter(state));

  // Adyen's error shape, never a stack: a body that is not JSON, a simulator call that does not parse, a bug.
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const unparsable = (error as { type?: unknown } | undefined)?.type === 'entity.parse.failed';
    const [status, errorType] = unparsable
      ? [400, 'validation']
      : error instanceof z.ZodError
        ? [422, 'validation']
        : [500, 'internal'];
    const message = status === 500 ? 'Internal error' : 'Unable to parse the request';
    res.status(status).json({ status, errorCode: '000', message, errorType });
  });
  return app;
}

export async function startAdyenSimulator(
  options: AdyenSimulatorOptions & { port?: number; host?: string } = {},
): Promise<RunningAdyenSimulator> {
  const state = new AdyenSimulatorState();
  const sender = new NotificationSender(state, options.notificationDelayMs ?? 20);
  let url = '';
  const server = http.createServer(createAdyenSimulatorApp(state, sender, options, () => url));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    sender,
    stop: () =>
      new Promise<void>((resolve) => {
        sender.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
