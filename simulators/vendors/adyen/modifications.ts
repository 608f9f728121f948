import { z } from 'zod';
import type { AdyenNotificationItem } from '../../../src/processors/adyen/webhooks';
import { adyenDate, afterCapture, simAmountSchema, type Processed } from './payments';
import type { AdyenSimulatorState, SimAmount, SimPayment } from './state';

/**
 * POST /payments/{pspReference}/captures | cancels | refunds | reversals of the simulator. Like
 * Adyen, it answers "received" at once and tells the outcome in a notification: CAPTURE,
 * CANCELLATION, REFUND, CANCEL_OR_REFUND with success "true" or "false". An unknown payment is
 * refused up front (422, errorCode 167).
 */
export type ModificationKind = 'captures' | 'cancels' | 'refunds' | 'reversals';
export const modificationKinds: readonly ModificationKind[] = ['captures', 'cancels', 'refunds', 'reversals'];

export const modificationBodySchema = z.object({
  merchantAccount: z.string().min(1),
  reference: z.string().max(80).optional(),
  amount: simAmountSchema.optional(),
});
export type ModificationBody = z.infer<typeof modificationBodySchema>;

const eventCodes: Record<ModificationKind, string> = {
  captures: 'CAPTURE',
  cancels: 'CANCELLATION',
  refunds: 'REFUND',
  reversals: 'CANCEL_OR_REFUND',
};

export function processModification(
  state: AdyenSimulatorState,
  kind: ModificationKind,
  paymentPsp: string,
  body: ModificationBody,
  now: Date,
): Processed {
  const payment = state.payments.get(paymentPsp);
  if (!payment || payment.merchantAccount !== body.merchantAccount) return unknownPayment();
  if ((kind === 'captures' || kind === 'refunds') && !body.amount) return missingAmount();
  const pspReference = state.newPspReference();
  const amount = body.amount ?? payment.amount;
  const outcome = apply(payment, kind, amount);
  const item: AdyenNotificationItem = {
    pspReference,
    originalReference: payment.pspReference,
    merchantAccountCode: payment.merchantAccount,
    merchantReference: body.reference ?? payment.reference,
    eventCode: eventCodes[kind],
    eventDate: adyenDate(now),
    success: outcome.ok ? 'true' : 'false',
    amount,
    paymentMethod: payment.brand,
    ...(outcome.ok ? {} : { reason: outcome.reason }),
    ...(outcome.action ? { additionalData: { 'modification.action': outcome.action } } : {}),
  };
  return {
    answer: {
      status: 201,
      body: {
        ...(body.amount ? { amount: body.amount } : {}),
        merchantAccount: body.merchantAccount,
        paymentPspReference: payment.pspReference,
        pspReference,
        ...(body.reference ? { reference: body.reference } : {}),
        status: 'received',
      },
    },
    notifications: [item, ...(outcome.ok ? follows(payment, kind, pspReference, item, now) : [])],
  };
}

interface Outcome {
  ok: boolean;
  reason?: string;
  action?: 'cancel' | 'refund';
}

const awaitingShopper = new Set(['RedirectShopper', 'ChallengeShopper']);

function apply(payment: SimPayment, kind: ModificationKind, amount: SimAmount): Outcome {
  // A payment waiting for the shopper's authentication can be canceled: its details then authorise nothing.
  if (awaitingShopper.has(payment.resultCode) && (kind === 'cancels' || kind === 'reversals')) {
    payment.cancelled = true;
    return { ok: true, action: 'cancel' };
  }
  if (payment.resultCode !== 'Authorised') return { ok: false, reason: 'Payment was not authorised' };
  if (amount.currency !== payment.amount.currency) return { ok: false, reason: 'Currency mismatch' };
  switch (kind) {
    case 'captures':
      if (payment.cancelled) return { ok: false, reason: 'Payment was cancelled' };
      if (payment.behaviour.kind === 'capture_fails') return { ok: false, reason: 'Capture failed' };
      if (payment.captured + amount.value > payment.amount.value)
        return { ok: false, reason: 'Capture amount exceeds the authorised amount' };
      payment.captured += amount.value;
      return { ok: true };
    case 'cancels':
      if (payment.cancelled || payment.captured > 0) return { ok: false, reason: 'Payment cannot be cancelled' };
      payment.cancelled = true;
      return { ok: true };
    case 'refunds':
      if (payment.refunded + amount.value > payment.captured)
        return { ok: false, reason: 'Refund amount exceeds the captured amount' };
      payment.refunded += amount.value;
      return { ok: true };
    case 'reversals':
      if (payment.cancelled) return { ok: true, action: 'cancel' };
      if (payment.captured === 0) {
        payment.cancelled = true;
        return { ok: true, action: 'cancel' };
      }
      payment.refunded = payment.captured;
      return { ok: true, action: 'refund' };
  }
}

/** A refund on the refund-fails card is confirmed, then fails; a capture may be disputed. */
function follows(
  payment: SimPayment,
  kind: ModificationKind,
  pspReference: string,
  item: AdyenNotificationItem,
  now: Date,
): AdyenNotificationItem[] {
  if (kind === 'captures') return afterCapture(payment, pspReference, now);
  if (kind === 'refunds' && payment.behaviour.kind === 'refund_fails') {
    payment.refunded -= item.amount.value;
    return [{ ...item, eventCode: 'REFUND_FAILED', success: 'true', reason: 'Refund failed at the issuer' }];
  }
  return [];
}

function unknownPayment(): Processed {
  return {
    answer: {
      status: 422,
      body: {
        status: 422,
        errorCode: '167',
        message: 'Original pspReference required for this operation',
        errorType: 'validation',
      },
    },
    notifications: [],
  };
}

function missingAmount(): Processed {
  return {
    answer: {
      status: 422,
      body: {
        status: 422,
        errorCode: '000',
        message: "Required field 'amount' is not provided.",
        errorType: 'validation',
      },
    },
    notifications: [],
  };
}
