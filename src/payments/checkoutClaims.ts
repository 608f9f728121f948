import type { Prisma } from '../db/prisma';
import type { DomainErrorData } from '../errors';

type Tx = Prisma.TransactionClient;

/**
 * Claims a checkout session for one payment before any processor is called. One row per session
 * (`checkout_payment_claims`): a conditional upsert takes it when it is free, released, or already
 * this payment's (a retried activity). Another payment holding it means a concurrent pay-v2 call;
 * the loser is refused (a conflict) before it charges anything. Also refuses a session no longer open,
 * and one whose total is no longer `amount` (an order bump added since the payment was validated).
 */
export async function claimCheckoutSession(
  tx: Tx,
  checkoutSessionId: string,
  paymentId: string,
  amount: number,
): Promise<DomainErrorData | null> {
  const claimed = await tx.$queryRaw<{ payment_id: string }[]>`
    INSERT INTO "checkout_payment_claims" ("checkout_session_id", "payment_id", "state", "updated_at")
    VALUES (${checkoutSessionId}, ${paymentId}, 'held', CURRENT_TIMESTAMP)
    ON CONFLICT ("checkout_session_id") DO UPDATE
      SET "payment_id" = EXCLUDED."payment_id", "state" = 'held', "updated_at" = CURRENT_TIMESTAMP
      WHERE "checkout_payment_claims"."state" = 'released' OR "checkout_payment_claims"."payment_id" = EXCLUDED."payment_id"
    RETURNING "payment_id"`;
  if (claimed.length === 0) {
    return {
      kind: 'conflict',
      code: 'CHECKOUT_PAYMENT_IN_PROGRESS',
      message: 'Another payment of this checkout session is in progress or has succeeded',
    };
  }
  // Re-read under the claim and a share lock on the session: a payment that finished just before us
  // has flipped it, and an order bump being applied (it locks the row FOR UPDATE) either committed
  // first, so its total shows here, or waits for us and then finds the claim held.
  await tx.$queryRaw`SELECT "id" FROM "checkout_sessions" WHERE "id" = ${checkoutSessionId} FOR SHARE`;
  const session = await tx.checkoutSession.findUniqueOrThrow({ where: { id: checkoutSessionId } });
  if (session.status === 'paid')
    return { kind: 'conflict', code: 'CHECKOUT_ALREADY_PAID', message: 'Checkout session is already paid' };
  if (session.status !== 'open' || session.expiresAt.getTime() <= Date.now()) {
    return { kind: 'conflict', code: 'CHECKOUT_EXPIRED', message: 'Checkout session is expired and cannot be paid' };
  }
  if (session.total !== amount) {
    return {
      kind: 'conflict',
      code: 'CHECKOUT_CHANGED',
      message: `Checkout session total is now ${session.total}, not ${amount} (an order bump was added); pay the new total`,
    };
  }
  return null;
}

/** A failed payment gives the session back, so the customer can pay it with another card. */
export async function releaseCheckoutClaim(tx: Tx, checkoutSessionId: string, paymentId: string): Promise<void> {
  await tx.checkoutPaymentClaim.updateMany({
    where: { checkoutSessionId, paymentId, state: 'held' },
    data: { state: 'released' },
  });
}
