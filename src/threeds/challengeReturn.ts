import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { notFound } from '../errors';
import { paymentResult, type ReturnedPayment } from '../payments/paymentResult';
import { threeDsChallengeReturnedUpdate } from '../../workflows/threeds/messages';
import type { ThreeDsSessionRow } from './sessions';

export type { ReturnedPayment } from '../payments/paymentResult';

export interface ChallengeReturnDeps {
  db: Db;
  temporal: Client;
  config: Pick<Config, 'PAYMENT_RESPONSE_TIMEOUT_MS'>;
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
