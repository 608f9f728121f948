import { z } from 'zod';
import { endpointSchema } from '../endpoint';
import { ProcessorTechnicalError } from '../types';

/** A Stripe processor's credentials: a secret key, the webhook signing secret, a simulator's origin (test mode). */
export const stripeCredentialsSchema = z
  .object({
    secretKey: z
      .string()
      .regex(
        /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,255}$/,
        'secretKey must be a Stripe secret key (sk_test_…, sk_live_…)',
      ),
    webhookSecret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{8,255}$/, 'webhookSecret must be a Stripe signing secret (whsec_…)')
      .optional(),
    endpoint: endpointSchema.optional(),
  })
  .strict();

export type StripeCredentials = z.infer<typeof stripeCredentialsSchema>;

/** A `…_test_…` key reaches Stripe's test mode, a `…_live_…` key moves real money: each only on a processor of its mode. */
export function stripeCredentialsModeProblem(credentials: Record<string, string>, mode: 'test' | 'live') {
  const keyMode = /^(sk|rk)_live_/.test(credentials.secretKey ?? '') ? 'live' : 'test';
  if (keyMode === mode) return undefined;
  return {
    field: 'secretKey',
    message:
      mode === 'live'
        ? 'a live processor needs a live Stripe key (sk_live_… or rk_live_…); a test key never reaches a real card network'
        : 'a test processor needs a test Stripe key (sk_test_… or rk_test_…); a live key moves real money',
  };
}

/** Before a call: a credential problem is technical and answered (nothing was sent). */
export function parseStripeCredentials(credentials: Record<string, string>): StripeCredentials {
  const parsed = stripeCredentialsSchema.safeParse(credentials);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'credentials';
    throw new ProcessorTechnicalError(`stripe processor credentials are invalid (${field})`, 'invalid_credentials');
  }
  return parsed.data;
}
