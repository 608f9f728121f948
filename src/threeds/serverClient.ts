import { z } from 'zod';
import { requestText, type TextAnswer } from '../http-client/textRequest';
import { postJson } from '../processors/httpExecutor';
import { ProcessorTechnicalError } from '../processors/types';

/**
 * Client of the 3DS server (in test mode the sandbox's, `${sandboxUrl}/threeds`). Failures of the
 * call (network, timeout, 5xx, unknown shape) are ProcessorTechnicalErrors: the activity retries
 * them. Request bodies carry the card number, so nothing here logs them.
 */
const resultSchema = z.object({
  threeDSServerTransID: z.string(),
  acsTransID: z.string(),
  dsTransID: z.string(),
  messageVersion: z.string(),
  cardBrand: z.string(),
  transStatus: z.enum(['Y', 'A', 'N', 'U', 'R', 'I', 'C']),
  eci: z.string().nullable(),
  authenticationValue: z.string().nullable(),
  challengeUrl: z.string().url().optional(),
});
export type ThreeDsServerResult = z.infer<typeof resultSchema>;

export interface AuthenticationRequest {
  reference: string;
  cardNumber: string;
  amount: number;
  currency: string;
  messageVersion: string;
  deviceChannel: 'browser' | '3ri';
  notificationUrl?: string;
  challengePreference?: string;
  authenticationType?: string;
  recurringInfo?: { frequency: number; expiry: string };
  merchant?: Record<string, string>;
  cardholder?: { name?: string; email?: string };
}

const timeoutMs = 10_000;

function parse(status: number, body: unknown): ThreeDsServerResult {
  if (status !== 200) throw new ProcessorTechnicalError(`3DS server answered HTTP ${status}`, 'threeds_server_error');
  const parsed = resultSchema.safeParse(body);
  if (!parsed.success) throw new ProcessorTechnicalError('3DS server answered in an unknown shape', 'invalid_response');
  return parsed.data;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createThreeDsServerClient(baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async authenticate(request: AuthenticationRequest): Promise<ThreeDsServerResult> {
      const answer = await postJson({ url: `${base}/v2/authenticate`, body: request, timeoutMs });
      return parse(answer.status, answer.body);
    },
    async result(threeDSServerTransID: string): Promise<ThreeDsServerResult> {
      let response: TextAnswer;
      try {
        // Redirects are not followed: a 3xx is the server's answer (and not a 200).
        response = await requestText({
          method: 'GET',
          url: `${base}/v2/transactions/${encodeURIComponent(threeDSServerTransID)}`,
          timeoutMs,
        });
      } catch (error) {
        throw new ProcessorTechnicalError(`3DS server unreachable: ${(error as Error).message}`, 'network_error');
      }
      return parse(response.status, jsonOrUndefined(response.text));
    },
  };
}
