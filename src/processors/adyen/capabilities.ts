import type { ProcessorCapabilities } from '../types';

/**
 * What the Adyen adapter does, as data (routing filters on it without building an adapter).
 * Currencies: Adyen accepts every currency a merchant account is configured for; the account's
 * configuration, not this table, decides, so routing does not filter on currency here.
 * 3-D Secure: external values are forwarded in `mpiData`. Step-up: given the engine's return URL,
 * Adyen's redirect action goes to the shopper and /payments/details decides; without one (or for a
 * native threeDS2 action) the adapter answers `requires_3ds` so the engine runs its own.
 * Network tokens: Adyen supports them, this adapter does not send them yet.
 */
export const adyenCapabilities: ProcessorCapabilities = Object.freeze({
  currencies: 'any',
  captureModes: Object.freeze(['automatic', 'manual'] as const),
  partialCapture: true,
  partialRefunds: true,
  multipleRefunds: true,
  void: true,
  externalThreeDs: true,
  hostedThreeDs: false,
  threeDsProvider: true,
  stepUp: true,
  networkTokens: false,
  asyncModifications: true,
});
