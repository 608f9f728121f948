import { currencyExponent, supportedCurrencies } from '../../domain/money';
import type { ProcessorCapabilities } from '../types';

/**
 * Stripe's card presentment currencies the engine knows. The three-decimal ones (BHD, JOD, KWD,
 * OMR, TND) are left out: Stripe takes them only in multiples of 10 minor units, so routing sends
 * them elsewhere.
 */
const currencies = supportedCurrencies.filter((currency) => currencyExponent(currency) <= 2);

export const stripeCapabilities: ProcessorCapabilities = {
  currencies,
  captureModes: ['automatic', 'manual'],
  partialCapture: true,
  partialRefunds: true,
  multipleRefunds: true,
  void: true,
  // Imported 3DS results through payment_method_options.card.three_d_secure.
  externalThreeDs: true,
  hostedThreeDs: false,
  threeDsProvider: false,
  stepUp: true,
  networkTokens: false,
  // Captures and cancels answer at once; a refund Stripe answers `pending` waits for its webhook.
  asyncModifications: false,
};
