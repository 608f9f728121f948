import type { Db } from '../db/prisma';

export interface ThreeDsSettings {
  flowId: string | null;
  flowThreeDsEnabled: boolean;
  processorId: string;
  processorEnable3DS: boolean;
}

/**
 * The processor's words on a card that needs 3-D Secure, then what the caller can do about it. This
 * processor could not send the shopper to its own authentication page (it has no step-up, or the
 * charge is merchant-initiated), so the payment must be authenticated before it reaches the
 * processor. Names the flow and processor whose setting is off (the engine runs 3-D Secure only when
 * both are on), or, with both on, says the payment came without authentication values.
 */
export function authenticationRequiredMessage(processorMessage: string | undefined, settings: ThreeDsSettings): string {
  const said = (processorMessage ?? 'The issuer asks for 3-D Secure authentication').replace(/\.?\s*$/, '.');
  const flow = settings.flowId ? `payment flow ${settings.flowId}` : 'the payment flow';
  const off = [
    settings.flowThreeDsEnabled ? '' : `threeDsEnabled on ${flow} (POST /payment-flows/update)`,
    settings.processorEnable3DS ? '' : `enable3DS on processor ${settings.processorId} (POST /processors/update)`,
  ].filter(Boolean);
  if (off.length > 0)
    return `${said} Authenticate the cardholder first: turn on ${off.join(' and ')} so the engine runs 3-D Secure, or send the threeDs values of your own 3-D Secure server.`;
  return `${said} threeDsEnabled is on for ${flow} and enable3DS for processor ${settings.processorId}, but this payment reached the processor without authentication: send the threeDs values of a 3-D Secure authentication of this cardholder.`;
}

/** The same, with the flow's setting read from the payment's flow (the processor's the caller has). */
export async function adviseAuthentication(
  db: Db,
  payment: { paymentId: string; accountId: string; mode: 'test' | 'live'; processorId: string },
  processorEnable3DS: boolean,
  processorMessage: string | undefined,
): Promise<string> {
  const scope = { accountId: payment.accountId, mode: payment.mode };
  const row = await db.payment.findFirst({
    where: { id: payment.paymentId, ...scope },
    select: { paymentFlowId: true },
  });
  const flow = row?.paymentFlowId
    ? await db.paymentFlow.findFirst({ where: { id: row.paymentFlowId, ...scope }, select: { threeDsEnabled: true } })
    : null;
  return authenticationRequiredMessage(processorMessage, {
    flowId: row?.paymentFlowId ?? null,
    flowThreeDsEnabled: flow?.threeDsEnabled ?? false,
    processorId: payment.processorId,
    processorEnable3DS,
  });
}
