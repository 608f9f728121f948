import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { behaviourOf, brandOf } from './cards';
import type { PaymentBody, Processed } from './payments';
import type { AdyenSimulatorState, SimPayment, StoredAnswer } from './state';

/**
 * Adyen's authentication-only flow as the simulator answers it (`authenticationData.authenticationOnly:
 * true`): 3-D Secure 2 runs, nothing is authorised, no notification follows, the ledger shows no charge.
 * - the 3DS test cards (…3220, …3184 and Adyen's documented 3DS2 cards) on a shopper-present request:
 *   `RedirectShopper` with a GET redirect to the simulator's authentication page; its answer comes back
 *   to `returnUrl` as `redirectResult`, and `/payments/details` then answers `AuthenticationFinished`
 *   with `threeDS2Result` (Y, or N when the shopper failed);
 * - every other card, and every merchant-initiated (ContAuth) request, which has no shopper to
 *   challenge: frictionless `AuthenticationFinished` with `threeDS2Result` transStatus Y.
 */
export const authenticationOnlySchema = z.object({
  authenticationData: z.object({ authenticationOnly: z.literal(true) }).passthrough(),
});

export function isAuthenticationOnly(body: unknown): boolean {
  return authenticationOnlySchema.safeParse(body).success;
}

const challenged = new Set(['challenge', 'redirect', 'redirect_3ds2']);

/** A threeDS2Result as Adyen returns it: ECI by brand, a base64 CAVV, transaction ids as UUIDs. */
function threeDS2Result(brand: string, authenticated: boolean): Record<string, string> {
  const mastercard = brand === 'mc';
  return {
    ...(authenticated ? { authenticationValue: randomBytes(20).toString('base64') } : {}),
    eci: authenticated ? (mastercard ? '02' : '05') : mastercard ? '00' : '07',
    transStatus: authenticated ? 'Y' : 'N',
    dsTransID: randomUUID(),
    threeDSServerTransID: randomUUID(),
    messageVersion: '2.2.0',
  };
}

function finished(payment: SimPayment, authenticated: boolean): StoredAnswer {
  payment.resultCode = 'AuthenticationFinished';
  payment.threeDS2Result = threeDS2Result(payment.brand, authenticated);
  return {
    status: 200,
    body: {
      merchantReference: payment.reference,
      pspReference: payment.pspReference,
      resultCode: 'AuthenticationFinished',
      threeDS2Result: payment.threeDS2Result,
    },
  };
}

export function processAuthenticationOnly(state: AdyenSimulatorState, body: PaymentBody, baseUrl: string): Processed {
  const behaviour = behaviourOf(body.paymentMethod.number);
  const payment: SimPayment = {
    pspReference: state.newPspReference(),
    merchantAccount: body.merchantAccount,
    reference: body.reference,
    amount: body.amount,
    brand: brandOf(body.paymentMethod.number),
    behaviour,
    resultCode: 'Received',
    manualCapture: false,
    ...(body.shopperInteraction ? { shopperInteraction: body.shopperInteraction } : {}),
    captured: 0,
    refunded: 0,
    cancelled: false,
    authenticationOnly: true,
  };
  state.payments.set(payment.pspReference, payment);
  if (!challenged.has(behaviour.kind) || body.shopperInteraction === 'ContAuth')
    return { answer: finished(payment, true), notifications: [] };
  payment.resultCode = 'RedirectShopper';
  payment.returnUrl = body.returnUrl;
  return {
    answer: {
      status: 200,
      body: {
        action: {
          type: 'redirect',
          method: 'GET',
          paymentMethodType: 'scheme',
          url: `${baseUrl}/simulator/redirect/${payment.pspReference}`,
        },
        merchantReference: payment.reference,
        pspReference: payment.pspReference,
        resultCode: 'RedirectShopper',
      },
    },
    notifications: [],
  };
}

/** /payments/details of an authentication-only payment: the threeDS2Result of the shopper's answer, once. */
export function authenticationOnlyDetails(payment: SimPayment, authenticated: boolean): Processed {
  payment.details ??= finished(payment, authenticated);
  return { answer: payment.details, notifications: [], merchantAccount: payment.merchantAccount };
}
