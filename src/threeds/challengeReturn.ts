import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { notFound } from '../errors';
import type { PaymentOutcome } from '../payments/workflowTypes';
import { awaitOutcomeUpdate } from '../../workflows/payments/messages';
import { threeDsChallengeReturnedUpdate } from '../../workflows/threeds/authentication';
import type { ThreeDsSessionRow } from './sessions';

export interface ChallengeReturnDeps {
  db: Db;
  temporal: Client;
  config: Pick<Config, 'PAYMENT_RESPONSE_TIMEOUT_MS'>;
}

/** The payment behind a session as the cardholder's browser is told it. */
export interface ReturnedPayment {
  id: string;
  status: string;
  amount: number;
  currency: string;
  declineCode: string | null;
  declineMessage: string | null;
}

/** The payment's outcome, waited for up to the payment deadline; a finished workflow's row has it. */
async function paymentResult(deps: ChallengeReturnDeps, paymentId: string): Promise<ReturnedPayment | null> {
  let outcome: PaymentOutcome | null = null;
  try {
    outcome = await deps.temporal.workflow
      .getHandle(paymentId)
      .executeUpdate(awaitOutcomeUpdate, { args: [{ waitMs: deps.config.PAYMENT_RESPONSE_TIMEOUT_MS }] });
  } catch {
    // The workflow has finished (or is unreachable): the row has the final state.
  }
  if (outcome?.kind === 'payment') {
    return {
      id: outcome.paymentId,
      status: outcome.status,
      amount: outcome.amount,
      currency: outcome.currency,
      declineCode: outcome.declineCode,
      declineMessage: outcome.declineMessage,
    };
  }
  const row = await deps.db.payment.findUnique({ where: { id: paymentId } });
  return row
    ? {
        id: row.id,
        status: row.status,
        amount: row.amount,
        currency: row.currency,
        declineCode: row.declineCode,
        declineMessage: row.declineMessage,
      }
    : null;
}

/**
 * The cardholder is back from the challenge: tells the waiting authentication workflow (which asks
 * the 3DS server for the result and records it), then answers the session as recorded and, for a
 * payment, the payment's outcome. The caller has checked the link's signed token.
 */
export async function completeChallengeReturn(
  deps: ChallengeReturnDeps,
  sessionId: string,
  providerReturnData?: string,
): Promise<{ session: ThreeDsSessionRow; payment: ReturnedPayment | null }> {
  const { db, temporal } = deps;
  if (providerReturnData) {
    // The provider's token for its result, kept for the workflow's check (which sends it to the
    // provider); only while the challenge is open, so a finished session is never touched.
    await db.threeDsSession.updateMany({
      where: { id: sessionId, status: 'challenge_required', providerProcessorId: { not: null } },
      data: { providerReturnData },
    });
  }
  let session = await db.threeDsSession.findUnique({ where: { id: sessionId } });
  if (!session) throw notFound('3DS session');
  if (session.status === 'challenge_required' && session.workflowId) {
    try {
      await temporal.workflow.getHandle(session.workflowId).executeUpdate(threeDsChallengeReturnedUpdate);
    } catch {
      // The workflow already moved on (timed out or finished): the row below tells what happened.
    }
    session = await db.threeDsSession.findUniqueOrThrow({ where: { id: sessionId } });
  }
  const payment =
    session.paymentId && session.status !== 'challenge_required' ? await paymentResult(deps, session.paymentId) : null;
  return { session, payment };
}
