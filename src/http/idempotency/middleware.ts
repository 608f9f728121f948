import { createHmac } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { Prisma, type Db } from '../../db/prisma';
import { newId } from '../../domain/ids';
import type { AuthContext } from '../core/context';
import { ApiError, badRequest, conflict } from '../core/errors';
import { hasUnreadableBody } from '../core/requestBody';

export const idempotencyHeader = 'idempotency-key';
/** Records are kept this long (the maintenance workflow sweeps them after). */
export const idempotencyRetentionMs = 24 * 3600 * 1000;

export interface IdempotencyOptions {
  /**
   * Key of the request fingerprint (HMAC-SHA256). Bodies may carry a card number and CVC, which an
   * unkeyed hash would let anyone with the table brute-force; see `idempotencyHashKey`. Read on the
   * first keyed request, so building the app never creates the vault key file by itself.
   */
  hashKey: () => Buffer;
  /** How long a repeat waits for the first request to finish before answering 409. */
  waitMs: number;
  /** An `in_progress` record older than this belongs to a request whose process died: a repeat takes it over. */
  staleMs: number;
  pollMs?: number;
}

/** `<key kind>:<processing account, account or key>:<mode>`: keys are per caller, so two merchants may use the same key. */
export function idempotencyScope(auth: AuthContext | undefined): string {
  return `${auth?.kind ?? 'none'}:${auth?.tpaId ?? auth?.accountId ?? auth?.keyId ?? 'anonymous'}:${auth?.mode ?? 'test'}`;
}

/** The key the caller sent, validated (1–255 visible ASCII characters), or undefined. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.header(idempotencyHeader);
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw badRequest('Idempotency-Key must be 1-255 visible ASCII characters', 'INVALID_IDEMPOTENCY_KEY');
  return key;
}

/** Canonical JSON (object keys sorted) so the same body hashes the same whatever its key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Deterministic under one key, so a repeat with the same body is recognised; not reversible without the key. */
export function requestHashOf(req: Pick<Request, 'method' | 'baseUrl' | 'path' | 'body'>, hashKey: Buffer): string {
  return createHmac('sha256', hashKey).update(`${req.method} ${req.baseUrl}${req.path}\n${canonical(req.body ?? {})}`).digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `Idempotency-Key` on mutating POSTs: the first request with a key runs and its answer (status
 * + body) is stored; a repeat with the same body gets that answer again (header
 * `Idempotent-Replayed: true`), also while the first still runs (it waits for it); the same key
 * with another body or path is 409. Server errors (5xx) are not stored, so the call may be retried.
 */
export function idempotency(db: Db, options: IdempotencyOptions) {
  const pollMs = options.pollMs ?? 50;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // An unreadable body hashes as no body at all, so it must not bind the key: its route answers
    // 400/415 and the corrected retry may come with the same key.
    if (req.method !== 'POST' || hasUnreadableBody(req)) return next();
    const key = idempotencyKeyOf(req);
    if (key === undefined) return next();
    const scope = idempotencyScope(req.auth);
    const requestHash = requestHashOf(req, options.hashKey());
    const deadline = Date.now() + options.waitMs;

    for (;;) {
      const owned = await claim(db, { scope, key, requestHash, method: req.method, path: `${req.baseUrl}${req.path}` }, options.staleMs);
      if (owned) break;
      const record = await db.idempotencyRecord.findUnique({ where: { scope_key: { scope, key } } });
      if (!record) continue; // deleted between the two reads (5xx or expiry): try to own it again
      if (record.requestHash !== requestHash) {
        throw conflict('This Idempotency-Key was already used with a different request', 'IDEMPOTENCY_KEY_REUSED');
      }
      if (record.state === 'completed') {
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(record.responseStatus ?? 200).json(record.responseBody);
        return;
      }
      if (Date.now() >= deadline) {
        throw new ApiError(409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress; retry later', undefined, { 'Retry-After': '1' });
      }
      await sleep(pollMs);
    }

    // We own the key: remember the answer once it is sent.
    const json = res.json.bind(res);
    let body: unknown;
    res.json = (payload: unknown) => {
      body = payload;
      return json(payload);
    };
    res.on('finish', () => {
      void store(db, scope, key, res.statusCode, body).catch((error: unknown) => req.log?.error({ err: error }, 'storing an idempotent answer failed'));
    });
    next();
  };
}

/** Inserts the record as ours, or takes over a stale in-progress one; false when someone else holds it. */
async function claim(
  db: Db,
  input: { scope: string; key: string; requestHash: string; method: string; path: string },
  staleMs: number,
): Promise<boolean> {
  const now = new Date();
  const inserted = await db.$executeRaw`
    INSERT INTO "idempotency_records" ("id", "scope", "key", "request_hash", "method", "path", "state", "created_at", "expires_at")
    VALUES (${newId('request')}, ${input.scope}, ${input.key}, ${input.requestHash}, ${input.method}, ${input.path}, 'in_progress', ${now}, ${new Date(now.getTime() + idempotencyRetentionMs)})
    ON CONFLICT ("scope", "key") DO NOTHING`;
  if (inserted === 1) return true;
  // An expired record no longer binds the key; a stale in-progress one lost its process.
  const takenOver = await db.idempotencyRecord.updateMany({
    where: {
      scope: input.scope,
      key: input.key,
      OR: [{ expiresAt: { lt: now } }, { state: 'in_progress', requestHash: input.requestHash, createdAt: { lt: new Date(now.getTime() - staleMs) } }],
    },
    data: { state: 'in_progress', requestHash: input.requestHash, method: input.method, path: input.path, createdAt: now, expiresAt: new Date(now.getTime() + idempotencyRetentionMs), responseStatus: null, responseBody: undefined },
  });
  return takenOver.count === 1;
}

async function store(db: Db, scope: string, key: string, status: number, body: unknown): Promise<void> {
  if (status >= 500) {
    await db.idempotencyRecord.deleteMany({ where: { scope, key, state: 'in_progress' } });
    return;
  }
  await db.idempotencyRecord.updateMany({
    where: { scope, key, state: 'in_progress' },
    data: { state: 'completed', responseStatus: status, responseBody: body === undefined || body === null ? Prisma.JsonNull : (body as Prisma.InputJsonValue) },
  });
}
