import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { awaitOutcomeUpdate } from '../../workflows/payments/messages';
import type { PaymentOutcome } from './workflowTypes';

/** The payment as a shopper's browser is told it, coming back from an authentication page. */
export interface ReturnedPayment {
  id: string;
  status: string;
  amount: number;
  currency: string;
  declineCode: string | null;
  declineMessage: string | null;
}

export interface PaymentResultDeps {
  db: Db;
  temporal: Client;
  config: Pick<Config, 'PAYMENT_RESPONSE_TIMEOUT_MS'>;
}

const finalStatuses = new Set(['succeeded', 'authorized', 'failed', 'canceled', 'refunded', 'partially_refunded']);

/**
 * The payment's outcome, waited for up to the payment deadline. A payment whose row is final is
 * answered from it (finalize writes the row before the workflow answers), so a browser coming back
 * late never waits on a workflow that is finishing.
 */
export async function paymentResult(deps: PaymentResultDeps, paymentId: string): Promise<ReturnedPayment | null> {
  const recorded = await deps.db.payment.findUnique({ where: { id: paymentId }, select: { status: true } });
  let outcome: PaymentOutcome | null = null;
  if (recorded && !finalStatuses.has(recorded.status)) {
    const waitMs = deps.config.PAYMENT_RESPONSE_TIMEOUT_MS;
    try {
      outcome = await deps.temporal.connection.withDeadline(Date.now() + waitMs + 5_000, () =>
        deps.temporal.workflow.getHandle(paymentId).executeUpdate(awaitOutcomeUpdate, { args: [{ waitMs }] }),
      );
    } catch {
      // The workflow has finished (or is unreachable): the row has the final state.
    }
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
