import type { ProcessorCapabilities } from '../types';

/** What the sandbox acquirer can do; `sandbox_hosted3ds` differs only in how it treats 3DS. */
export const sandboxAcquirerCapabilities = {
  currencies: 'any',
  captureModes: ['automatic', 'manual'],
  partialCapture: true,
  partialRefunds: true,
  multipleRefunds: true,
  void: true,
  externalThreeDs: true,
  hostedThreeDs: false,
  threeDsProvider: false,
  stepUp: false,
  networkTokens: false,
  asyncModifications: false,
} as const satisfies ProcessorCapabilities;
