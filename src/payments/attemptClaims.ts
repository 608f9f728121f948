import type { Db } from '../db/prisma';
import { attemptIdempotencyKey } from './attemptRows';
import { rawRows } from '../db/rawRows';

/** What a processor call needs to start: the attempt's identity, its card, its processor and its money. */
export interface AttemptClaimInput {
  paymentId: string;
  attemptNumber: number;
  paymentInstrumentId: string;
  processorId: string;
  accountId: string;
  mode: 'test' | 'live';
  amount: number;
  currency: string;
}

export interface ClaimedAttempt {
  instrument: CardRow | null;
  processor: ProcessorRow | null;
  /** This try's number (1 for the first), counted in Postgres across workers and restarts. */
  tryNumber: number;
  /** Whether a try before this one may have charged under the attempt's idempotency key. */
  earlierTryMayHaveCharged: boolean;
}

/**
 * Claims one try of a processor call and reads its card and processor (scoped to the account and
 * mode), in one statement, before the call goes out. The claim row is what makes "may have
 * charged" survive a crash: a try run again on another worker (a local activity starts counting
 * again at 1 there) finds the tries before it. A try that started but left no verdict
 * (`settleClaimTry`) may have been cut off mid-call, so it counts as "may have charged".
 */
export async function claimAttempt(db: Db, input: AttemptClaimInput): Promise<ClaimedAttempt> {
  const key = attemptIdempotencyKey(input.paymentId, input.attemptNumber);
  const [row] = await rawRows<ClaimRow>(db)`
    WITH claim AS (
      INSERT INTO authorization_claims (payment_id, attempt_number, processor_id, idempotency_key, amount, currency)
      VALUES (${input.paymentId}, ${input.attemptNumber}, ${input.processorId}, ${key}, ${input.amount}, ${input.currency})
      ON CONFLICT (payment_id, attempt_number) DO UPDATE SET tries = authorization_claims.tries + 1
      RETURNING tries, settled_tries, may_have_charged
    )
    SELECT
      (SELECT jsonb_build_object('encryptedPan', encrypted_pan, 'expMonth', exp_month, 'expYear', exp_year,
              'cardholderName', cardholder_name)
         FROM payment_instruments
        WHERE id = ${input.paymentInstrumentId} AND account_id = ${input.accountId} AND mode = ${input.mode}::"Mode")
        AS instrument,
      (SELECT jsonb_build_object('id', id, 'type', type, 'encryptedCredentials', encrypted_credentials,
              'enable3DS', enable_3ds)
         FROM processors
        WHERE id = ${input.processorId} AND account_id = ${input.accountId} AND mode = ${input.mode}::"Mode")
        AS processor,
      claim.tries, claim.settled_tries, claim.may_have_charged
    FROM claim`;
  if (!row) throw new Error(`claiming attempt ${key} returned no row`);
  return {
    instrument: row.instrument,
    processor: row.processor,
    tryNumber: row.tries,
    earlierTryMayHaveCharged: earlierTryMayHaveCharged(row),
  };
}

/** Every try before this one left a verdict, and none said "may have charged". */
function earlierTryMayHaveCharged(row: Pick<ClaimRow, 'tries' | 'settled_tries' | 'may_have_charged'>): boolean {
  if (row.tries <= 1) return false;
  return row.may_have_charged || row.settled_tries !== row.tries - 1;
}

/**
 * A failed try's verdict, for the tries after it. Best effort: a verdict that cannot be written
 * leaves a gap, which the next try reads as "may have charged" (the safe side).
 */
export async function settleClaimTry(
  db: Db,
  attempt: { paymentId: string; attemptNumber: number },
  mayHaveCharged: boolean,
): Promise<void> {
  await db.$executeRaw`
    UPDATE authorization_claims
       SET settled_tries = settled_tries + 1, may_have_charged = may_have_charged OR ${mayHaveCharged}
     WHERE payment_id = ${attempt.paymentId} AND attempt_number = ${attempt.attemptNumber}`;
}

interface ClaimRow {
  instrument: CardRow | null;
  processor: ProcessorRow | null;
  tries: number;
  settled_tries: number;
  may_have_charged: boolean;
}

interface CardRow {
  encryptedPan: string;
  expMonth: number;
  expYear: number;
  cardholderName: string | null;
}

interface ProcessorRow {
  id: string;
  type: string;
  encryptedCredentials: string;
  enable3DS: boolean;
}
