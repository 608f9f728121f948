import type { AuthorizeRequest, FollowUpRequest, ReversalRequest } from '../types';
import type { SandboxCredentials } from './credentials';

/** The engine's calls → the sandbox acquirer's requests (`simulators/acquirer/`). Pure. */
export function bearer(credentials: SandboxCredentials): Record<string, string> {
  return credentials.apiKey ? { authorization: `Bearer ${credentials.apiKey}` } : {};
}

export function requestHeaders(idempotencyKey: string, credentials: SandboxCredentials): Record<string, string> {
  return {
    'idempotency-key': idempotencyKey,
    ...bearer(credentials),
    ...(credentials.timeoutDelayMs ? { 'x-sandbox-delay-ms': credentials.timeoutDelayMs } : {}),
  };
}

export function authorizeBody(
  request: AuthorizeRequest,
  credentials: SandboxCredentials,
  variant: { forwardThreeDs: boolean; stepUp: boolean },
) {
  return {
    merchantId: credentials.merchantId,
    reference: request.paymentId,
    amount: request.amount,
    currency: request.currency,
    capture: request.capture,
    initiatedBy: request.initiatedBy,
    card: {
      number: request.card.number,
      expMonth: request.card.expMonth,
      expYear: request.card.expYear,
      ...(request.card.holderName ? { holderName: request.card.holderName } : {}),
    },
    // Forwarded unchanged: the acquirer validates the authentication value byte for byte.
    ...(variant.forwardThreeDs && request.threeDs ? { threeDs: request.threeDs } : {}),
    ...(variant.stepUp && request.returnUrl ? { returnUrl: request.returnUrl } : {}),
  };
}

/** Capture, void and refund take the same body. */
export function followUpBody(request: FollowUpRequest, credentials: SandboxCredentials) {
  return { merchantId: credentials.merchantId, amount: request.amount, currency: request.currency };
}

export function reversalBody(request: ReversalRequest, credentials: SandboxCredentials) {
  return {
    merchantId: credentials.merchantId,
    originalIdempotencyKey: request.originalIdempotencyKey,
    amount: request.amount,
    currency: request.currency,
  };
}

export function lookupByKeyBody(idempotencyKey: string, credentials: SandboxCredentials) {
  return { merchantId: credentials.merchantId, idempotencyKey };
}

export function authorizationPath(id: string, credentials: SandboxCredentials): string {
  return `/authorizations/${encodeURIComponent(id)}?${new URLSearchParams({ merchantId: credentials.merchantId }).toString()}`;
}
