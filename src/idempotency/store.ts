import { Prisma, type Db } from '../db/prisma';
import { newId } from '../domain/ids';

/**
 * Answers are kept this long; then the maintenance workflow strips the record to its fingerprint
 * (state `expired`). The fingerprint itself is kept for good: payment, refund and follow-up ids are
 * derived from the key, and those rows live for good too, so the key stays bound to its request.
 */
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
 * Inserts the record as ours, or takes over one of the SAME request (fingerprint) whose answer is
 * no longer kept or never came: expired (the request runs again and finds the rows its ids name),
 * or in progress under an owner that stopped beating, or older than `staleMs`. A key is never freed
 * for another request by age. False when a live request holds it, or it is another request's.
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
    WHERE r."scope" = ${input.scope} AND r."key" = ${input.key} AND r."request_hash" = ${input.requestHash}
      AND (r."expires_at" < ${now}
        OR (r."state" = 'in_progress'
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

/**
 * Strips records past their retention to their fingerprint: the answer goes (state `expired`),
 * the key's binding to its request stays. Returns how many were stripped.
 */
export async function expireIdempotencyAnswers(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.idempotencyRecord.updateMany({
    where: { state: { in: ['in_progress', 'completed'] }, expiresAt: { lt: now } },
    data: { state: 'expired', responseStatus: null, responseBody: Prisma.DbNull, ownerId: null },
  });
  return count;
}

/** Deletes the heartbeat rows of API processes gone for longer than any record they could still own. */
export async function forgetGoneOwners(db: Db, now = new Date()): Promise<void> {
  await db.idempotencyOwner.deleteMany({
    where: { heartbeatAt: { lt: new Date(now.getTime() - idempotencyRetentionMs) } },
  });
}
