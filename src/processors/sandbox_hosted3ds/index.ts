import { createSandboxAcquirerAdapter, type AdapterDeps } from '../sandbox/adapter';
import type { ProcessorAdapter } from '../types';

/**
 * `sandbox_hosted3ds`: the same simulated acquirer seen as a processor that runs its own hosted
 * 3DS. It ignores external 3DS values (never forwards them), so a bring-your-own-3DS payment must
 * be routed elsewhere; routing reads that from `capabilities`.
 */
export function createSandboxHosted3dsAdapter(deps: AdapterDeps): ProcessorAdapter {
  return createSandboxAcquirerAdapter(deps, {
    type: 'sandbox_hosted3ds',
    forwardThreeDs: false,
    capabilities: {
      currencies: 'any',
      externalThreeDs: false,
      hostedThreeDs: true,
      captureModes: ['automatic', 'manual'],
      partialRefunds: true,
    },
  });
}
