import { Prisma, type Db } from '../db/prisma';
import type { DomainErrorData } from '../errors';
import { rawRows } from '../db/rawRows';

type Tx = Prisma.TransactionClient;

/** The payment row a prepare writes `processing` (prepare.ts builds it from the workflow input). */
export interface NewPaymentRow {
  id: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  customerId: string | null;
  orderId: string | null;
  checkoutSessionId: string;
  paymentInstrumentId: string | null;
  paymentFlowId: string | null;
  threedsSessionId: string | null;
  intent: string;
  amount: number;
  currency: string;
  initiatedBy: string;
  source: string | null;
  clientIp: string | null;
  returnUrl: string | null;
  metadata: Record<string, string> | null;
  workflowRunId: string | null;
}

/**
 * Claims a checkout session for one payment and writes that payment's row, in ONE statement
 * (atomic without BEGIN/COMMIT), before any processor is called. One claim row per session
 * (`checkout_payment_claims`): a conditional upsert takes it when it is free, released, or already
 * this payment's. Another payment holding it means a concurrent pay-v2 call; the loser is refused
 * (a conflict) before it charges anything. The session is read FOR SHARE: a payment finishing
 * concurrently (its flip to paid holds the row) is waited for and its result seen, as the re-read
 * after the claim did; only an open, unexpired session whose total is still the payment's amount is
 * claimed (an order bump, which locks the session FOR UPDATE, either committed first and shows in the
 * total, or waits and then finds the claim held), so a refusal leaves no claim.
 */
export async function claimCheckoutSessionForPayment(
  db: Db | Tx,
  payment: NewPaymentRow,
): Promise<DomainErrorData | null> {
  const now = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
  const [row] = await rawRows<{
    claimed: string | null;
    status: string | null;
    open: boolean;
    total: number | null;
    heldBy: string | null;
  }>(db)`
    WITH session AS (
      SELECT status::text AS status, expires_at > ${now} AS unexpired, total
        FROM checkout_sessions WHERE id = ${payment.checkoutSessionId} FOR SHARE
    ), claimed AS (
      INSERT INTO "checkout_payment_claims" ("checkout_session_id", "payment_id", "state", "updated_at")
      SELECT ${payment.checkoutSessionId}, ${payment.id}, 'held', ${now} FROM session WHERE status = 'open' AND unexpired AND total = ${payment.amount}::int
      ON CONFLICT ("checkout_session_id") DO UPDATE
        SET "payment_id" = EXCLUDED."payment_id", "state" = 'held', "updated_at" = EXCLUDED."updated_at"
        WHERE "checkout_payment_claims"."state" = 'released' OR "checkout_payment_claims"."payment_id" = EXCLUDED."payment_id"
      RETURNING "payment_id"
    ), inserted AS (
      INSERT INTO payments (id, account_id, mode, store_id, customer_id, order_id, checkout_session_id,
                            payment_instrument_id, payment_flow_id, threeds_session_id, intent, status, amount,
                            currency, initiated_by, source, client_ip, return_url, metadata, workflow_run_id,
                            created_at, updated_at)
      SELECT ${payment.id}, ${payment.accountId}, ${payment.mode}::"Mode", ${payment.storeId}, ${payment.customerId},
             ${payment.orderId}, ${payment.checkoutSessionId}, ${payment.paymentInstrumentId}, ${payment.paymentFlowId},
             ${payment.threedsSessionId}, ${payment.intent}, 'processing', ${payment.amount}::int, ${payment.currency},
             ${payment.initiatedBy}, ${payment.source}, ${payment.clientIp}, ${payment.returnUrl},
             ${payment.metadata === null ? null : JSON.stringify(payment.metadata)}::jsonb, ${payment.workflowRunId},
             ${now}, ${now}
        FROM claimed
      RETURNING id
    )
    SELECT (SELECT payment_id FROM claimed) AS claimed,
           (SELECT status FROM session) AS status,
           coalesce((SELECT status = 'open' AND unexpired FROM session), false) AS open,
           (SELECT total FROM session) AS total,
           (SELECT payment_id FROM checkout_payment_claims
             WHERE checkout_session_id = ${payment.checkoutSessionId} AND state = 'held') AS "heldBy"`;
  if (row?.claimed) return null;
  const heldByAnother = row?.heldBy != null && row.heldBy !== payment.id;
  if (row?.open && !heldByAnother && row.total !== payment.amount) {
    return {
      kind: 'conflict',
      code: 'CHECKOUT_CHANGED',
      message: `Checkout session total is now ${row.total}, not ${payment.amount} (an order bump was added); pay the new total`,
    };
  }
  if (row?.open || heldByAnother) {
    return {
      kind: 'conflict',
      code: 'CHECKOUT_PAYMENT_IN_PROGRESS',
      message: 'Another payment of this checkout session is in progress or has succeeded',
    };
  }
  if (row?.status === 'paid')
    return { kind: 'conflict', code: 'CHECKOUT_ALREADY_PAID', message: 'Checkout session is already paid' };
  return { kind: 'conflict', code: 'CHECKOUT_EXPIRED', message: 'Checkout session is expired and cannot be paid' };
}

/** A failed payment gives the session back, so the customer can pay it with another card. */
export async function releaseCheckoutClaim(tx: Tx, checkoutSessionId: string, paymentId: string): Promise<void> {
  await tx.checkoutPaymentClaim.updateMany({
    where: { checkoutSessionId, paymentId, state: 'held' },
    data: { state: 'released' },
  });
}
