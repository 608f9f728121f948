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

/** The payment's outcome, waited for up to the payment deadline; a finished workflow's row has it. */
export async function paymentResult(deps: PaymentResultDeps, paymentId: string): Promise<ReturnedPayment | null> {
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
