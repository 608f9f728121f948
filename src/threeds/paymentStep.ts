import type { Db } from '../db/prisma';
import type { DispatchEvents } from '../events/afterCommit';
import { capabilityNames } from '../payments/processorAccess';
import { planThreeDs } from './paymentPlan';
import { paymentSessionId } from './returnLink';
import { createSession, findSession, valuesOf } from './sessions';
import type { PaymentThreeDsInput, ThreeDsPlan } from './workflowTypes';

/**
 * The payment's 3DS step: loads the given session (account + mode scoped) and decides with the
 * flow and processors (paymentPlan.ts). For a new authentication it creates the payment's session,
 * with an id derived from the payment id so a repeated call finds it instead of adding one.
 */
export async function planPaymentThreeDs(
  db: Db,
  dispatch: DispatchEvents,
  input: PaymentThreeDsInput,
): Promise<ThreeDsPlan> {
  const scope = { accountId: input.accountId, mode: input.mode };
  const session = input.threedsSessionId ? await findSession(db, scope, input.threedsSessionId) : null;
  const decision = planThreeDs({
    initiatedBy: input.initiatedBy,
    flowThreeDsEnabled: input.flowThreeDsEnabled,
    processors: input.processors.map((processor) => ({
      enable3DS: processor.enable3DS,
      capabilities: capabilityNames(processor.type),
    })),
    session: input.threedsSessionId
      ? session
        ? {
            found: true,
            type: session.type,
            status: session.status,
            transStatus: session.transStatus,
            failureReason: session.failureReason,
          }
        : { found: false }
      : null,
  });
  switch (decision.kind) {
    case 'skip':
    case 'declined':
      return decision;
    case 'use':
      return { kind: 'use', sessionId: session!.id, values: decision.forward ? valuesOf(session!) : null };
    case 'authenticate': {
      const id = paymentSessionId(input.paymentId);
      const existing = await db.threeDsSession.findUnique({ where: { id } });
      // 3RI: a merchant session, as /threeds/create-merchant-session makes, for a rebill on the card on file.
      const merchantInitiated = decision.deviceChannel === '3ri';
      if (!existing) {
        // The flow the payment was prepared with names the 3DS provider (none: the sandbox's simulator).
        const payment = await db.payment.findUnique({
          where: { id: input.paymentId },
          select: { paymentFlowId: true },
        });
        const flow = payment?.paymentFlowId
          ? await db.paymentFlow.findFirst({ where: { id: payment.paymentFlowId, ...scope } })
          : null;
        await createSession(
          db,
          {
            ...scope,
            type: merchantInitiated ? 'merchant' : 'customer',
            status: 'pending',
            source: 'payment',
            storeId: input.storeId,
            customerId: input.customerId,
            paymentInstrumentId: input.paymentInstrumentId,
            paymentId: input.paymentId,
            authenticationType: merchantInitiated ? 'recurring-transaction' : 'payment-transaction',
            workflowId: input.paymentId,
            providerProcessorId: flow?.threeDsProviderProcessorId ?? null,
          },
          { id, dispatch },
        );
      }
      // The payment row (written by preparePayment) points at the session its 3DS step made.
      await db.payment.updateMany({
        where: { id: input.paymentId, threedsSessionId: null },
        data: { threedsSessionId: id },
      });
      return { kind: 'authenticate', sessionId: id, deviceChannel: decision.deviceChannel };
    }
  }
}
