import { Prisma, type Db } from '../db/prisma';
import { newId } from '../domain/ids';

/** Records are kept this long (the maintenance workflow sweeps them after). */
export const idempotencyRetentionMs = 24 * 3600 * 1000;

/** One keyed request: whose key, the key, the request's fingerprint, and the API process running it. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  requestHash: string;
  method: string;
  path: string;
  ownerId: string;
}

export interface ClaimTimeouts {
  /** An `in_progress` record older than this is taken over whatever its owner. */
  staleMs: number;
  /** A record whose owner's heartbeat is older than this is taken over. */
  ownerTimeoutMs: number;
}

/**
 * Inserts the record as ours, or takes over one that no longer binds the key: expired, or in
 * progress (same request) under an owner that stopped beating, or older than `staleMs`.
 * False when a live request holds it.
 */
export async function claimIdempotencyKey(db: Db, input: IdempotencyClaim, timeouts: ClaimTimeouts): Promise<boolean> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + idempotencyRetentionMs);
  const inserted = await db.$executeRaw`
    INSERT INTO "idempotency_records" ("id", "scope", "key", "request_hash", "method", "path", "state", "created_at", "expires_at", "owner_id")
    VALUES (${newId('request')}, ${input.scope}, ${input.key}, ${input.requestHash}, ${input.method}, ${input.path}, 'in_progress', ${now}, ${expiresAt}, ${input.ownerId})
    ON CONFLICT ("scope", "key") DO NOTHING`;
  if (inserted === 1) return true;
  const takenOver = await db.$executeRaw`
    UPDATE "idempotency_records" AS r
    SET "state" = 'in_progress', "request_hash" = ${input.requestHash}, "method" = ${input.method}, "path" = ${input.path},
        "created_at" = ${now}, "expires_at" = ${expiresAt}, "owner_id" = ${input.ownerId}, "response_status" = NULL, "response_body" = NULL
    WHERE r."scope" = ${input.scope} AND r."key" = ${input.key}
      AND (r."expires_at" < ${now}
        OR (r."state" = 'in_progress' AND r."request_hash" = ${input.requestHash}
          AND (r."created_at" < ${new Date(now.getTime() - timeouts.staleMs)}
            OR (r."owner_id" IS NOT NULL AND r."owner_id" <> ${input.ownerId} AND NOT EXISTS (
              SELECT 1 FROM "idempotency_owners" o
              WHERE o."id" = r."owner_id" AND o."heartbeat_at" > (now() AT TIME ZONE 'UTC') - ${timeouts.ownerTimeoutMs}::int * interval '1 millisecond')))))`;
  return takenOver === 1;
}

/** The record of a key as it stands, or null (never claimed, or deleted meanwhile). */
export function findIdempotencyRecord(db: Db, scope: string, key: string) {
  return db.idempotencyRecord.findUnique({ where: { scope_key: { scope, key } } });
}

/** Completes our record; a record taken over meanwhile (we were thought dead) is left to its new owner. */
export async function completeIdempotencyRecord(
  db: Db,
  input: IdempotencyClaim,
  status: number,
  body: unknown,
): Promise<void> {
  await db.idempotencyRecord.updateMany({
    where: { scope: input.scope, key: input.key, state: 'in_progress', ownerId: input.ownerId },
    data: {
      state: 'completed',
      responseStatus: status,
      responseBody: body === undefined || body === null ? Prisma.JsonNull : (body as Prisma.InputJsonValue),
    },
  });
}

/** Frees the key (5xx, refusal before work): the same key may be sent again and runs. */
export async function releaseIdempotencyRecord(db: Db, input: IdempotencyClaim): Promise<void> {
  await db.idempotencyRecord.deleteMany({
    where: { scope: input.scope, key: input.key, state: 'in_progress', ownerId: input.ownerId },
  });
}
