import type { ProcessorAdapter } from '../types';
import { createSandboxAcquirerAdapter, type AdapterDeps } from './adapter';

/** `sandbox`: the simulated card acquirer; accepts externally authenticated 3DS values and forwards them. */
export function createSandboxAdapter(deps: AdapterDeps): ProcessorAdapter {
  return createSandboxAcquirerAdapter(deps, {
    type: 'sandbox',
    forwardThreeDs: true,
    capabilities: {
      currencies: 'any',
      externalThreeDs: true,
      hostedThreeDs: false,
      captureModes: ['automatic', 'manual'],
      partialRefunds: true,
    },
  });
}
