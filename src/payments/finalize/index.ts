import type { Db } from '../../db/prisma';
import type { Logger } from '../../logging/logger';
import type { FinalizeInput } from '../workflowTypes';
import { fitsPaidCheckoutStatement, recordPaidCheckout } from './paidCheckoutStatement';
import { recordPaymentEndInTransaction, type PaymentEndRecorded } from './transaction';

export type { PaymentEndRecorded } from './transaction';
export { fitsPaidCheckoutStatement, recordPaidCheckout, type PaidCheckoutRecorded } from './paidCheckoutStatement';

/*
 * The two writers of a payment's end, side by side: recordPaidCheckout (paidCheckoutStatement.ts),
 * one statement for the plain approved checkout payment, and recordPaymentEndInTransaction
 * (transaction.ts) for everything else and whenever the statement writes nothing. They must
 * write the same rows and events: a change to one is a change to the other.
 */

/**
 * Records the end of a payment: the one statement when it fits and writes, else the transaction.
 * A repeat after commit finds the payment no longer open and answers what was recorded, writing nothing twice.
 */
export async function recordPaymentEnd(db: Db, logger: Logger, input: FinalizeInput): Promise<PaymentEndRecorded> {
  if (fitsPaidCheckoutStatement(input)) {
    const recorded = await recordPaidCheckout(db, input);
    if (recorded) {
      return {
        eventIds: recorded.eventIds,
        recordedEvents: recorded.recordedEvents,
        order: recorded.order,
        closed: { paymentCreatedAt: recorded.paymentCreatedAt },
      };
    }
  }
  return recordPaymentEndInTransaction(db, logger, input);
}
