import { z } from 'zod';
import type { AdyenNotificationItem } from '../../../src/processors/adyen/webhooks';
import { behaviourOf, brandOf, refusalTriggeredBy, type TriggeredRefusal } from './cards';
import type { AdyenSimulatorState, SimPayment, StoredAnswer } from './state';

/**
 * POST /payments of the simulator: decides the outcome from the card (cards.ts) and the external
 * 3DS values, records the payment and says which notifications follow. Timing (held answers,
 * in-progress keys) and idempotency are the router's.
 */
const amountSchema = z.object({ value: z.number().int().nonnegative(), currency: z.string().regex(/^[A-Z]{3}$/) });
export const simAmountSchema = amountSchema;

export const paymentBodySchema = z.object({
  amount: amountSchema,
  merchantAccount: z.string().min(1),
  reference: z.string().min(1).max(80),
  returnUrl: z.string().min(1),
  paymentMethod: z.object({
    type: z.string(),
    number: z.string(),
    expiryMonth: z.string().regex(/^(0[1-9]|1[0-2])$/),
    expiryYear: z.string().regex(/^\d{4}$/),
    holderName: z.string().optional(),
    cvc: z.string().optional(),
  }),
  shopperInteraction: z.string().optional(),
  recurringProcessingModel: z.string().optional(),
  additionalData: z.record(z.string(), z.string()).optional(),
  mpiData: z.record(z.string(), z.string()).optional(),
  channel: z.enum(['iOS', 'Android', 'Web']).optional(),
  origin: z.string().max(80).optional(),
  metadata: z.record(z.string().max(20), z.string().max(80)).optional(),
});
export type PaymentBody = z.infer<typeof paymentBodySchema>;

export interface Processed {
  answer: StoredAnswer;
  notifications: AdyenNotificationItem[];
  /** Whose notifications these are, when the request body does not name the merchant account. */
  merchantAccount?: string;
}

export function processPayment(state: AdyenSimulatorState, body: PaymentBody, baseUrl: string, now: Date): Processed {
  const behaviour = behaviourOf(body.paymentMethod.number);
  const pspReference = state.newPspReference();
  const authentication = authenticationOf(body.mpiData);
  const trigger = refusalTriggeredBy(body.paymentMethod.holderName);
  const merchantInitiated = body.shopperInteraction === 'ContAuth';
  const result = decide(
    behaviour,
    authentication,
    expired(body.paymentMethod, now),
    pspReference,
    baseUrl,
    trigger,
    merchantInitiated,
  );
  const manualCapture = body.additionalData?.manualCapture === 'true';
  const authorised = result.resultCode === 'Authorised';
  const payment: SimPayment = {
    pspReference,
    merchantAccount: body.merchantAccount,
    reference: body.reference,
    amount: body.amount,
    brand: brandOf(body.paymentMethod.number),
    behaviour,
    resultCode: result.resultCode,
    manualCapture,
    ...(body.shopperInteraction ? { shopperInteraction: body.shopperInteraction } : {}),
    ...(body.recurringProcessingModel ? { recurringProcessingModel: body.recurringProcessingModel } : {}),
    ...(body.mpiData ? { mpiData: body.mpiData } : {}),
    ...(body.metadata ? { metadata: body.metadata } : {}),
    captured: authorised && !manualCapture ? body.amount.value : 0,
    refunded: 0,
    cancelled: false,
    ...(result.resultCode === 'RedirectShopper' ? { returnUrl: body.returnUrl } : {}),
  };
  state.payments.set(pspReference, payment);
  return {
    answer: {
      status: 200,
      body: {
        ...(authorised ? { additionalData: { authCode: String(100000 + (now.getTime() % 900000)) } } : {}),
        ...(result.action ? { action: result.action } : {}),
        amount: body.amount,
        merchantReference: body.reference,
        pspReference,
        ...(result.refusalReason ? { refusalReason: result.refusalReason } : {}),
        ...(result.refusalReasonCode ? { refusalReasonCode: result.refusalReasonCode } : {}),
        resultCode: result.resultCode,
      },
    },
    notifications: paymentNotifications(payment, result.refusalReason, now),
  };
}

interface Decision {
  resultCode: 'Authorised' | 'Refused' | 'Error' | 'ChallengeShopper' | 'RedirectShopper';
  refusalReason?: string;
  refusalReasonCode?: string;
  action?: Record<string, string>;
}

type Authentication = 'authenticated' | 'failed' | 'none';

function decide(
  behaviour: ReturnType<typeof behaviourOf>,
  authentication: Authentication,
  isExpired: boolean,
  pspReference: string,
  baseUrl: string,
  trigger: TriggeredRefusal | undefined,
  merchantInitiated: boolean,
): Decision {
  if (isExpired) return { resultCode: 'Refused', refusalReasonCode: '6', refusalReason: 'Expired Card' };
  if (authentication === 'failed')
    return { resultCode: 'Refused', refusalReasonCode: '11', refusalReason: '3D Not Authenticated' };
  if (trigger) return { ...trigger };
  switch (behaviour.kind) {
    case 'refuse':
      return {
        resultCode: 'Refused',
        refusalReasonCode: behaviour.refusalReasonCode,
        refusalReason: behaviour.refusalReason,
      };
    case 'error':
      return { resultCode: 'Error', refusalReason: 'Internal error' };
    case 'challenge':
      if (authentication === 'authenticated') return { resultCode: 'Authorised' };
      return {
        resultCode: 'ChallengeShopper',
        action: { type: 'threeDS2', subtype: 'challenge', paymentMethodType: 'scheme', token: btoa(pspReference) },
      };
    case 'redirect_3ds2':
      if (merchantInitiated) return { resultCode: 'Authorised' };
    // falls through: a shopper-present payment is redirected
    case 'redirect':
      if (authentication === 'authenticated') return { resultCode: 'Authorised' };
      return {
        resultCode: 'RedirectShopper',
        action: {
          type: 'redirect',
          method: 'GET',
          paymentMethodType: 'scheme',
          url: `${baseUrl}/simulator/redirect/${pspReference}`,
        },
      };
    case 'authorise':
    case 'answer_lost':
    case 'slow':
    case 'server_error':
    case 'error_after_charge':
    case 'capture_fails':
    case 'refund_fails':
    case 'dispute':
      return { resultCode: 'Authorised' };
  }
}

/** Authenticated values carry a CAVV and a Y or A status; N or R is a failed authentication. */
function authenticationOf(mpiData: Record<string, string> | undefined): Authentication {
  if (!mpiData) return 'none';
  const status = mpiData.authenticationResponse ?? mpiData.directoryResponse;
  if (status === 'N' || status === 'R') return 'failed';
  return mpiData.cavv && (status === 'Y' || status === 'A') ? 'authenticated' : 'none';
}

function expired(card: PaymentBody['paymentMethod'], now: Date): boolean {
  const year = Number(card.expiryYear);
  const month = Number(card.expiryMonth);
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
}

/** AUTHORISATION for a decided payment; an automatic capture that fails or gets disputed says so later. */
export function paymentNotifications(
  payment: SimPayment,
  reason: string | undefined,
  now: Date,
): AdyenNotificationItem[] {
  if (payment.resultCode === 'ChallengeShopper' || payment.resultCode === 'RedirectShopper') return [];
  const authorised = payment.resultCode === 'Authorised';
  const items: AdyenNotificationItem[] = [
    {
      pspReference: payment.pspReference,
      merchantAccountCode: payment.merchantAccount,
      merchantReference: payment.reference,
      eventCode: 'AUTHORISATION',
      eventDate: adyenDate(now),
      success: authorised ? 'true' : 'false',
      amount: payment.amount,
      paymentMethod: payment.brand,
      ...(authorised ? { operations: ['CANCEL', 'CAPTURE', 'REFUND'] } : { reason: reason ?? payment.resultCode }),
      ...(payment.metadata ? { additionalData: { metadata: payment.metadata } } : {}),
    },
  ];
  if (authorised && !payment.manualCapture) items.push(...afterCapture(payment, payment.pspReference, now));
  return items;
}

/** What follows a capture on the cards that misbehave after it. */
export function afterCapture(payment: SimPayment, capturePsp: string, now: Date): AdyenNotificationItem[] {
  const base = {
    originalReference: payment.pspReference,
    merchantAccountCode: payment.merchantAccount,
    merchantReference: payment.reference,
    eventDate: adyenDate(now),
    amount: payment.amount,
    paymentMethod: payment.brand,
  };
  if (payment.behaviour.kind === 'capture_fails' && !payment.manualCapture) {
    payment.captured = 0;
    return [
      { ...base, pspReference: capturePsp, eventCode: 'CAPTURE_FAILED', success: 'true', reason: 'Capture failed' },
    ];
  }
  if (payment.behaviour.kind === 'dispute')
    return [
      {
        ...base,
        pspReference: `${capturePsp.slice(0, 12)}DISP`,
        eventCode: 'CHARGEBACK',
        success: 'true',
        reason: 'Fraud',
      },
    ];
  return [];
}

/** ISO 8601 with an offset and no fraction, as Adyen writes eventDate. */
export function adyenDate(now: Date): string {
  return `${now.toISOString().slice(0, 19)}+00:00`;
}
