import type { Db } from '../../src/db/prisma';
import { newId } from '../../src/domain/ids';
import type { AttemptRecord } from '../../src/payments/workflowTypes';

/** One PaymentAttempt row per (payment, attempt number): a retried activity updates, never adds. */
export async function upsertAttempt(db: Db, paymentId: string, attempt: AttemptRecord): Promise<void> {
  const data = {
    processorId: attempt.processorId,
    outcome: attempt.outcome,
    errorCode: attempt.errorCode,
    category: attempt.category,
    message: attempt.message,
    processorReference: attempt.processorReference,
  };
  await db.paymentAttempt.upsert({
    where: { paymentId_attemptNumber: { paymentId, attemptNumber: attempt.attemptNumber } },
    create: { id: newId('paymentAttempt'), paymentId, attemptNumber: attempt.attemptNumber, ...data },
    update: data,
  });
}
