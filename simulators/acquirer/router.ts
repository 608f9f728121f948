import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { createAuthenticationRouter } from './authentication';
import { maxTimeoutDelayMs } from './cards';
import { lookupById, lookupByKey } from './lookup';
import { authorize, followUp, reverse } from './operations';
import { AcquirerState, type AcquirerBook, type StoredAnswer } from './state';

/**
 * The sandbox card acquirer, over real HTTP (mounted at /acquirer):
 * - POST /v1/authorizations, /v1/authorizations/:id/{capture,void,refunds}, /v1/reversals
 *   (undo an authorization found by the idempotency key it was sent with): every call needs an
 *   Idempotency-Key header; the same key (per merchant) returns the same stored answer, even while
 *   the first call is still running, and never adds a second ledger entry; the same key with a
 *   different request answers 409;
 * - an authorization with a `returnUrl` on a card that asks for 3-D Secure answers
 *   `requires_action` with the acquirer's own authentication page (authentication.ts);
 * - POST /v1/lookups {merchantId, idempotencyKey}, GET /v1/authorizations/:id?merchantId: what stands
 *   under an authorization's key or id (lookup.ts); a key nothing stands under is closed;
 * - GET /ledger?merchantId&reference&idempotencyKey&operation&transactionId: what was processed;
 * - POST /outage {merchantId, enabled}: while on, every call for that merchant answers 503.
 * - POST /_simulator/holds, GET /_simulator/holds/:holdId, POST /_simulator/holds/:holdId/release:
 *   hold an authorization in flight until a test releases it (holds.ts).
 */
const authorizeSchema = z.object({
  merchantId: z.string().min(1),
  reference: z.string().min(1),
  amount: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  capture: z.boolean(),
  initiatedBy: z.enum(['customer', 'merchant']).optional(),
  card: z.object({
    number: z.string().regex(/^\d{12,19}$/),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(2100),
    holderName: z.string().optional(),
  }),
  threeDs: z.record(z.string(), z.unknown()).optional(),
  returnUrl: z
    .string()
    .max(2048)
    .url()
    .refine((url) => /^https?:\/\//i.test(url), 'returnUrl must be http or https')
    .optional(),
});
const followUpSchema = z.object({
  merchantId: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
const reversalSchema = z.object({
  merchantId: z.string().min(1),
  originalIdempotencyKey: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
const lookupQuerySchema = z.object({ merchantId: z.string().min(1), idempotencyKey: z.string().min(1) });
const lookupByIdQuerySchema = z.object({ merchantId: z.string().min(1) });
const outageSchema = z.object({ merchantId: z.string().min(1), enabled: z.boolean() });
const holdSchema = z.object({
  merchantId: z.string().min(1),
  idempotencyKey: z.string().min(1).optional(),
  cardLast4: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
});
const ledgerQuerySchema = z.object({
  merchantId: z.string().optional(),
  reference: z.string().optional(),
  idempotencyKey: z.string().optional(),
  operation: z.enum(['authorize', 'capture', 'void', 'refund', 'reversal']).optional(),
  transactionId: z.string().optional(),
});

export function createAcquirerRouter(state = new AcquirerState()): express.Router {
  const router = express.Router();
  const refused = (req: Request, res: Response, merchantId: string) => refusedBy(state, req, res, merchantId);

  router.post('/v1/authorizations', (req, res) =>
    handle(req, res, authorizeSchema, (body, key, book) =>
      authorize(book, {
        ...body,
        idempotencyKey: key,
        delayMs: delayHeader(req),
        baseUrl: `${req.protocol}://${req.get('host') ?? ''}${req.baseUrl}`,
      }),
    ),
  );
  router.use(createAuthenticationRouter(state));
  for (const [action, operation] of [
    ['capture', 'capture'],
    ['void', 'void'],
    ['refunds', 'refund'],
  ] as const) {
    router.post(`/v1/authorizations/:transactionId/${action}`, (req, res) =>
      handle(req, res, followUpSchema, async (body, key, book) =>
        followUp(book, operation, { ...body, idempotencyKey: key, transactionId: String(req.params.transactionId) }),
      ),
    );
  }

  router.post('/v1/reversals', (req, res) =>
    handle(req, res, reversalSchema, async (body, key, book) => reverse(book, { ...body, idempotencyKey: key })),
  );

  router.post('/v1/lookups', (req, res) => {
    const query = lookupQuerySchema.safeParse(req.body);
    if (!query.success)
      return void res
        .status(400)
        .json({ status: 'failed', code: 'invalid_request', message: 'merchantId and idempotencyKey are required' });
    if (refused(req, res, query.data.merchantId)) return;
    res.json(lookupByKey(state, query.data.merchantId, query.data.idempotencyKey));
  });

  router.get('/v1/authorizations/:transactionId', (req, res) => {
    const query = lookupByIdQuerySchema.safeParse(req.query);
    if (!query.success)
      return void res
        .status(400)
        .json({ status: 'failed', code: 'invalid_request', message: 'merchantId is required' });
    if (refused(req, res, query.data.merchantId)) return;
    res.json(lookupById(state, query.data.merchantId, String(req.params.transactionId)));
  });

  router.get('/ledger', (req, res) => {
    const query = ledgerQuerySchema.safeParse(req.query);
    if (!query.success) return void res.status(400).json({ message: 'bad ledger query', code: 'invalid_request' });
    const entries = state.ledger.filter((entry) =>
      Object.entries(query.data).every(
        ([field, wanted]) => wanted === undefined || entry[field as keyof typeof entry] === wanted,
      ),
    );
    res.json({ entries });
  });

  router.post('/outage', (req, res) => {
    const body = outageSchema.safeParse(req.body);
    if (!body.success)
      return void res
        .status(400)
        .json({ message: 'merchantId (string) and enabled (boolean) are required', code: 'invalid_request' });
    state.setOutage(body.data.merchantId, body.data.enabled);
    res.json({ merchantId: body.data.merchantId, outage: body.data.enabled });
  });

  router.post('/_simulator/holds', (req, res) => {
    const body = holdSchema.safeParse(req.body);
    if (!body.success)
      return void res.status(400).json({
        message: 'merchantId (string) is required; idempotencyKey (string) and cardLast4 (4 digits) are optional',
        code: 'invalid_request',
      });
    res.status(201).json(state.holds.arm(body.data));
  });
  router.get('/_simulator/holds/:holdId', (req, res) => {
    const hold = state.holds.get(String(req.params.holdId));
    if (!hold) return void res.status(404).json({ message: 'No such hold', code: 'hold_not_found' });
    res.json(hold);
  });
  router.post('/_simulator/holds/:holdId/release', (req, res) => {
    const hold = state.holds.release(String(req.params.holdId));
    if (!hold) return void res.status(404).json({ message: 'No such hold', code: 'hold_not_found' });
    res.json(hold);
  });

  return router;

  async function handle<S extends z.ZodType<{ merchantId: string }>>(
    req: Request,
    res: Response,
    schema: S,
    run: (body: z.infer<S>, key: string, book: AcquirerBook) => Promise<StoredAnswer>,
  ): Promise<void> {
    const parsed = schema.safeParse(req.body);
    const key = req.header('idempotency-key');
    if (!parsed.success || !key) {
      res.status(400).json({
        status: 'failed',
        code: 'invalid_request',
        message: key ? parsed.error?.issues[0]?.message : 'Idempotency-Key header is required',
      });
      return;
    }
    const merchantId = parsed.data.merchantId;
    if (refused(req, res, merchantId)) return;
    // The request identifies the call (same key, other request: 409); the state keeps only its fingerprint.
    const request = `${req.path}\u0000${JSON.stringify(parsed.data)}`;
    const answer = state.answerOnce(merchantId, key, request, (book) => run(parsed.data, key, book));
    if (!answer) {
      res
        .status(409)
        .json({ code: 'idempotency_conflict', message: 'This Idempotency-Key was used for a different request' });
      return;
    }
    const stored = await answer;
    res.status(stored.status).json(stored.body);
  }
}

/** An outage (503) or a rejected API key (401) answers before anything is read or done. */
function refusedBy(state: AcquirerState, req: Request, res: Response, merchantId: string): boolean {
  if (state.inOutage(merchantId)) {
    res.status(503).json({ code: 'processor_unavailable', message: 'The acquirer is in outage for this merchant' });
    return true;
  }
  if (req.header('authorization')?.startsWith('Bearer invalid')) {
    res.status(401).json({ code: 'invalid_credentials', message: 'Unknown API key' });
    return true;
  }
  return false;
}

/** How long the timeout card is held (x-sandbox-delay-ms), so tests can pick something above their engine timeout. */
function delayHeader(req: Request): number | undefined {
  const raw = req.header('x-sandbox-delay-ms');
  if (raw === undefined) return undefined;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? Math.min(value, maxTimeoutDelayMs) : undefined;
}
