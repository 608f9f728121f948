import type { ProcessorCapabilities, ProcessorDefinition } from '../types';
import { createSandboxAcquirerAdapter } from './adapter';
import { classifySandboxCode, sandboxCredentialsSchema } from './transformers';

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

/** `sandbox`: the simulated card acquirer; accepts externally authenticated 3DS values and forwards them. */
export const sandboxProcessor: ProcessorDefinition = {
  type: 'sandbox',
  testOnly: true,
  capabilities: sandboxAcquirerCapabilities,
  credentialsSchema: sandboxCredentialsSchema,
  classify: classifySandboxCode,
  createAdapter: (deps) =>
    createSandboxAcquirerAdapter(deps, {
      type: 'sandbox',
      forwardThreeDs: true,
      capabilities: sandboxAcquirerCapabilities,
    }),
};
