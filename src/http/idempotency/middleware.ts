import { idempotentReplays } from '../../metrics/metrics';
import type { NextFunction, Request, Response } from 'express';
import { requestHashOf } from '../../idempotency/requestHash';
import {
  claimIdempotencyKey,
  completeIdempotencyRecord,
  findIdempotencyRecord,
  releaseIdempotencyRecord,
  type IdempotencyClaim,
} from '../../idempotency/store';
import type { IdKind } from '../../domain/ids';
import { businessId } from '../../payments/startPayment';
import { setIdempotencyGate, type IdempotencyGateOptions } from '../core/idempotencyGate';
import type { AppDeps, AuthContext } from '../core/context';
import { ApiError } from '../core/errors';
import { conflict, invalid } from '../../errors';
import { answerIsRefusalBeforeWork } from '../core/beforeWork';
import { hasUnreadableBody } from '../core/requestBody';
import type { IdempotencyOwnerLease } from '../../idempotency/ownerLease';

export const idempotencyHeader = 'idempotency-key';

export interface IdempotencyOptions {
  /**
   * Key of the request fingerprint (HMAC-SHA256). Bodies may carry a card number and CVC, which an
   * unkeyed hash would let anyone with the table brute-force; see `idempotencyHashKey`. Read on the
   * first keyed request, so building the app never creates the vault key file by itself.
   */
  hashKey: () => Buffer;
  /** How long a repeat waits for the first request to finish before answering 409. */
  waitMs: number;
  /** An `in_progress` record older than this is taken over whatever its owner (a request that never answered). */
  staleMs: number;
  /** The process's heartbeat; a record whose owner has not beaten for `ownerTimeoutMs` is taken over. */
  lease: IdempotencyOwnerLease;
  ownerTimeoutMs: number;
  pollMs?: number;
  /** Whose keys these are (default: the API key's caller, `idempotencyScope`); runs after authentication. */
  scopeOf?: (req: Request) => string;
}

/** `<key kind>:<processing account, account or key>:<mode>`: keys are per caller, so two merchants may use the same key. */
export function idempotencyScope(auth: AuthContext | undefined): string {
  return `${auth?.kind ?? 'none'}:${auth?.tpaId ?? auth?.accountId ?? auth?.keyId ?? 'anonymous'}:${auth?.mode ?? 'test'}`;
}

/** The key the caller sent, validated (1–255 visible ASCII characters), or undefined. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.header(idempotencyHeader);
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key))
    throw invalid('Idempotency-Key must be 1-255 visible ASCII characters', 'INVALID_IDEMPOTENCY_KEY');
  return key;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The id of a record a keyed request creates (payment, refund, follow-up run): derived from the
 * caller, the key AND the request's fingerprint (plus what else must bind it, e.g. the refunded
 * payment), so a retry of the same request finds the same record, and another request sent under
 * the same key can never land on it. Random without a key.
 */
export function keyedBusinessId(req: Request, kind: IdKind, namespace: string, ...bound: string[]): string {
  const key = idempotencyKeyOf(req);
  if (key === undefined) return businessId(kind, namespace, undefined);
  const binding = req.idempotency;
  if (!binding || binding.key !== key) throw new Error('a keyed id needs the Idempotency-Key middleware in front');
  return idOfKeyedRequest(kind, binding, namespace, ...bound);
}

/** keyedBusinessId from the binding itself (caller scope, key, fingerprint). */
export function idOfKeyedRequest(
  kind: IdKind,
  binding: { scope: string; key: string; requestHash: string },
  namespace: string,
  ...bound: string[]
): string {
  return businessId(kind, `${binding.scope}:${namespace}`, [binding.key, binding.requestHash, ...bound].join('\n'));
}

/** The stored form of an answer: the route's secret fields left out (a replay shows the resource, not the secret). */
function withoutSecrets(body: unknown, secretFields: readonly string[] | undefined): unknown {
  if (!secretFields?.length || !body || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([field]) => !secretFields.includes(field)));
}

/**
 * `Idempotency-Key` on mutating POSTs: the first request with a key runs and its answer (status
 * + body) is stored; a repeat with the same body gets that answer again (header
 * `Idempotent-Replayed: true`), also while the first still runs (it waits for it); the same key
 * with another body or path is 409, for good (the fingerprint outlives the answer). Not stored,
 * so the call may be retried with the same key: server errors (5xx) and refusals before any work
 * (see core/beforeWork.ts). A request whose API process died is taken over by its retry once the
 * owner's heartbeat is `ownerTimeoutMs` old.
 *
 * The middleware only reads the key and fingerprints the request; the route runs the claim (or
 * the replay) once it has authorized the caller (`passIdempotencyGate` in defineRoute), so a key
 * that may not make the request never gets its stored answer.
 */
export function idempotency(db: AppDeps['db'], options: IdempotencyOptions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // An unreadable body hashes as no body at all, so it must not bind the key: its route answers
    // 400/415 and the corrected retry may come with the same key.
    if (req.method !== 'POST' || hasUnreadableBody(req)) return next();
    const key = idempotencyKeyOf(req);
    if (key === undefined) return next();
    const scope = options.scopeOf ? options.scopeOf(req) : idempotencyScope(req.auth);
    const requestHash = requestHashOf(req, options.hashKey());
    req.idempotency = { key, scope, requestHash };
    setIdempotencyGate(res, (gate) =>
      claimOrReplay(
        db,
        options,
        req,
        res,
        {
          scope,
          key,
          requestHash,
          method: req.method,
          path: `${req.baseUrl}${req.path}`,
          ownerId: options.lease.ownerId,
        },
        gate,
      ),
    );
    next();
  };
}

/** Claims the key for this request (false: the route goes on) or answers from its record (true: answered). */
async function claimOrReplay(
  db: AppDeps['db'],
  options: IdempotencyOptions,
  req: Request,
  res: Response,
  claimInput: IdempotencyClaim,
  gate: IdempotencyGateOptions,
): Promise<boolean> {
  const pollMs = options.pollMs ?? 50;
  const { lease } = options;
  const deadline = Date.now() + options.waitMs;
  // Held before the claim: a record must never exist under an owner whose heartbeat is stale.
  await lease.hold();
  let owned = false;
  try {
    for (;;) {
      owned = await claimIdempotencyKey(db, claimInput, options);
      if (owned) break;
      const record = await findIdempotencyRecord(db, claimInput.scope, claimInput.key);
      if (!record) continue; // deleted between the two reads (not stored): try to own it again
      if (record.requestHash !== claimInput.requestHash) {
        throw conflict('This Idempotency-Key was already used with a different request', 'IDEMPOTENCY_KEY_REUSED');
      }
      if (record.state === 'completed') {
        res.setHeader('Idempotent-Replayed', 'true');
        idempotentReplays.inc({ api: req.baseUrl || 'none' });
        res.status(record.responseStatus ?? 200).json(record.responseBody);
        return true;
      }
      if (Date.now() >= deadline) {
        throw new ApiError(
          409,
          'IDEMPOTENCY_REQUEST_IN_PROGRESS',
          'A request with this Idempotency-Key is still in progress; retry later',
          undefined,
          { 'Retry-After': '1' },
        );
      }
      await sleep(pollMs);
    }
  } finally {
    if (!owned) lease.release();
  }

  // We own the key: remember the answer as soon as the handler gives it, before it is sent, so a
  // caller holding an answer always finds it stored (or the key free); a client that hung up
  // still gets it on its retry. An answer not sent as JSON is remembered when it finishes.
  let settled: Promise<void> | undefined;
  const settle = (body: unknown) => {
    const keep = res.statusCode < 400 || (res.statusCode < 500 && !answerIsRefusalBeforeWork(res));
    settled ??= (
      keep
        ? completeIdempotencyRecord(db, claimInput, res.statusCode, withoutSecrets(body, gate.secretFields))
        : releaseIdempotencyRecord(db, claimInput)
    )
      .catch((error: unknown) => req.log?.error({ err: error }, 'storing an idempotent answer failed'))
      .finally(() => lease.release());
    return settled;
  };
  const json = res.json.bind(res);
  res.json = (payload: unknown) => {
    void settle(payload).then(() => json(payload));
    return res;
  };
  res.on('finish', () => void settle(undefined));
  return false;
}
