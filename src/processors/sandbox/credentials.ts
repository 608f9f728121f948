import { z } from 'zod';
import { endpointSchema } from '../endpoint';
import { ProcessorTechnicalError } from '../types';

/** Credentials of a sandbox acquirer merchant (both sandbox types take the same). */
export const sandboxCredentialsSchema = z
  .object({
    merchantId: z.string().trim().min(1).max(200),
    apiKey: z.string().min(1).max(4096).optional(),
    /** How long the acquirer holds its answer for the timeout card (ms); default 10 000. */
    timeoutDelayMs: z
      .string()
      .regex(/^\d{1,6}$/, 'timeoutDelayMs must be a whole number of milliseconds')
      .optional(),
    endpoint: endpointSchema.optional(),
  })
  .strict();

export type SandboxCredentials = z.infer<typeof sandboxCredentialsSchema>;

export function parseCredentials(credentials: Record<string, string>): SandboxCredentials {
  const parsed = sandboxCredentialsSchema.safeParse(credentials);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'credentials';
    throw new ProcessorTechnicalError(`sandbox processor credentials are invalid (${field})`, 'invalid_credentials');
  }
  return parsed.data;
}
