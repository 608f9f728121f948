import type { ProcessorDefinition } from '../types';
import { createSandboxAcquirerAdapter } from './adapter';
import { sandboxAcquirerCapabilities } from './capabilities';
import { classifySandboxCode } from './codes';
import { sandboxCredentialsSchema } from './credentials';

/**
 * `sandbox`: the simulated card acquirer; accepts externally authenticated 3DS values and forwards
 * them. No `webhooks` (webhooks.ts says why).
 */
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
