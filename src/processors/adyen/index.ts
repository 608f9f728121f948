import { adyenCapabilities } from './capabilities';
import { classifyAdyenCode } from './codes';
import type { ProcessorDefinition } from '../types';
import { adyenCredentialsModeProblem, adyenCredentialsSchema } from './credentials';
import { createAdyenAdapter } from './adapter';
import { adyenWebhooks } from './webhooks';

/** `adyen`: Adyen Checkout API v71 (docs/processors-adyen.md). */
export const adyenProcessor: ProcessorDefinition = {
  type: 'adyen',
  capabilities: adyenCapabilities,
  credentialsSchema: adyenCredentialsSchema,
  credentialsModeProblem: adyenCredentialsModeProblem,
  classify: classifyAdyenCode,
  createAdapter: createAdyenAdapter,
  webhooks: adyenWebhooks,
};
