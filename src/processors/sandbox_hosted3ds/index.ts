import { createSandboxAcquirerAdapter } from '../sandbox/adapter';
import { sandboxAcquirerCapabilities } from '../sandbox/capabilities';
import { classifySandboxCode } from '../sandbox/codes';
import { sandboxCredentialsSchema } from '../sandbox/credentials';
import type { ProcessorCapabilities, ProcessorDefinition } from '../types';

const capabilities: ProcessorCapabilities = {
  ...sandboxAcquirerCapabilities,
  externalThreeDs: false,
  hostedThreeDs: true,
  threeDsProvider: false,
  stepUp: true,
};

/**
 * `sandbox_hosted3ds`: the same simulated acquirer seen as a processor that runs its own hosted
 * 3DS. It ignores external 3DS values (never forwards them), so a bring-your-own-3DS payment must
 * be routed elsewhere; routing reads that from `capabilities`. Given a return URL (a
 * customer-initiated payment), a card that asks for 3DS steps up at the acquirer's own page.
 * A variant folder: everything but these capabilities is the `sandbox` folder's (same acquirer,
 * wire format, codes and credentials), so it holds only this definition.
 */
export const sandboxHostedThreeDsProcessor: ProcessorDefinition = {
  type: 'sandbox_hosted3ds',
  testOnly: true,
  capabilities,
  credentialsSchema: sandboxCredentialsSchema,
  classify: classifySandboxCode,
  createAdapter: (deps) =>
    createSandboxAcquirerAdapter(deps, { type: 'sandbox_hosted3ds', forwardThreeDs: false, capabilities }),
};
