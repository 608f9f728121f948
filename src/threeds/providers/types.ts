/**
 * A 3-D Secure server the engine runs authentication with: the sandbox's simulator (test mode) or
 * a real provider named by the payment flow (src/threeds/providers/adyenAuthenticationOnly.ts).
 * Failures of a call (network, timeout, 5xx, an unknown shape) are ProcessorTechnicalErrors: the
 * activity retries them. Request bodies carry the card number, so nothing here logs them.
 */
export interface ProviderAuthenticationRequest {
  /** The 3DS session id: the provider's reference and the base of its idempotency key. */
  reference: string;
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cardholderName?: string | null;
  amount: number;
  currency: string;
  messageVersion: string;
  deviceChannel: 'browser' | '3ri';
  /** The engine's signed challenge return link: where the cardholder's browser comes back. */
  notificationUrl: string;
  challengePreference?: string;
  authenticationType?: string;
  recurringInfo?: { frequency: number; expiry: string };
  merchant?: Record<string, string>;
  cardholder?: { name?: string; email?: string };
}

/** A provider's answer: final (any transStatus but C), or C with the page to send the cardholder to. */
export interface ProviderResult {
  transStatus: string | null;
  eci: string | null;
  authenticationValue: string | null;
  dsTransID: string | null;
  acsTransID: string | null;
  threeDSServerTransID: string | null;
  messageVersion: string | null;
  cardBrand: string | null;
  challengeUrl?: string;
  /** Why a final answer failed when transStatus alone does not say (a refused request, an unsupported challenge). */
  failureReason?: string;
}

/** What a provider needs of the session to fetch a challenge's result. */
export interface OpenChallenge {
  id: string;
  threeDSServerTransID: string | null;
  providerReturnData: string | null;
}

export interface ThreeDsProvider {
  authenticate(request: ProviderAuthenticationRequest): Promise<ProviderResult>;
  /** The result of an open challenge, or null while the provider has none yet. */
  result(challenge: OpenChallenge): Promise<ProviderResult | null>;
}
