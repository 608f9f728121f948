import type { ProcessorDefinition } from '../types';
import { createStripeAdapter } from './adapter';
import { stripeCapabilities } from './capabilities';
import { classifyStripeCode } from './codes';
import { stripeCredentialsModeProblem, stripeCredentialsSchema } from './credentials';
import { stripeWebhooks } from './webhooks';

/** `stripe`: Stripe PaymentIntents through the official SDK; credentials {secretKey, webhookSecret?, endpoint?}. */
export const stripeProcessor: ProcessorDefinition = {
  type: 'stripe',
  capabilities: stripeCapabilities,
  credentialsSchema: stripeCredentialsSchema,
  credentialsModeProblem: stripeCredentialsModeProblem,
  classify: classifyStripeCode,
  createAdapter: (deps) => createStripeAdapter(deps, stripeCapabilities),
  webhooks: stripeWebhooks,
};
