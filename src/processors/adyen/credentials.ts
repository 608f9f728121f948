import { z } from 'zod';
import { ProcessorTechnicalError } from '../types';

/**
 * Adyen credentials, validated when a processor is created or updated and again before each call
 * (sealed credentials written before a schema change must not reach Adyen half-formed).
 * - apiKey: the web service user's API key (sent as `x-api-key`).
 * - merchantAccount: the merchant account every request names.
 * - hmacKey: the webhook HMAC key (hex, as the Customer Area shows it); verifies notifications.
 * - liveUrlPrefix: set for the live environment only (the `[random]-[company]` prefix of the
 *   account's live endpoints); without it requests go to Adyen's test environment.
 * - endpoint: test mode only (the processors route refuses it in live mode); replaces the scheme,
 *   host and port of the base URL, paths unchanged, to reach a simulator.
 * - returnUrl: sent on payments that cannot step up (Adyen requires the field on every payment);
 *   their redirects never reach a shopper (the adapter answers requires_3ds), so the default is a
 *   reserved name that can never resolve (RFC 2606). A step-up payment sends the engine's return link.
 */
export const defaultReturnUrl = 'https://checkout.invalid/adyen-redirect-unused';

const nonEmpty = z.string().trim().min(1);

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    const pathless = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    return (url.protocol === 'http:' || url.protocol === 'https:') && pathless;
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export const adyenCredentialsSchema = z
  .object({
    apiKey: nonEmpty,
    merchantAccount: nonEmpty,
    hmacKey: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2})+$/, 'hmacKey must be the hexadecimal key shown in the Customer Area')
      .optional(),
    liveUrlPrefix: z
      .string()
      .regex(/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/, 'liveUrlPrefix must look like 1797a841fbb37ca7-AdyenDemo')
      .optional(),
    endpoint: z
      .string()
      .refine(isOrigin, 'endpoint must be scheme://host[:port] with no path, e.g. http://127.0.0.1:4010')
      .optional(),
    returnUrl: z.string().max(1024).refine(isHttpUrl, 'returnUrl must be an http(s) URL').optional(),
  })
  .strict();

export type AdyenCredentials = z.infer<typeof adyenCredentialsSchema>;

/**
 * `liveUrlPrefix` is what sends requests to Adyen's live environment: a live processor needs it
 * (without it, requests go to Adyen's test environment), a test processor must not have it.
 */
export function adyenCredentialsModeProblem(credentials: Record<string, string>, mode: 'test' | 'live') {
  const reachesLive = Boolean(credentials.liveUrlPrefix);
  if (reachesLive === (mode === 'live')) return undefined;
  return {
    field: 'liveUrlPrefix',
    message:
      mode === 'live'
        ? "a live processor needs liveUrlPrefix (the prefix of the account's live endpoints, Customer Area → Developers → API URLs); without it requests go to Adyen's test environment"
        : "liveUrlPrefix is for live processors only: it sends requests to Adyen's live environment",
  };
}

/** Before a call: a credential problem is technical and answered (nothing was sent). */
export function parseAdyenCredentials(credentials: Record<string, string>): AdyenCredentials {
  const parsed = adyenCredentialsSchema.safeParse(credentials);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(credentials)').join(', ');
  throw new ProcessorTechnicalError(`adyen credentials are invalid: ${fields}`, 'invalid_credentials');
}

/** Checkout API v71 base URL: test, or live with the account's prefix; `endpoint` swaps the origin. */
export function checkoutBaseUrl(credentials: Pick<AdyenCredentials, 'liveUrlPrefix' | 'endpoint'>): string {
  const base = credentials.liveUrlPrefix
    ? new URL(`https://${credentials.liveUrlPrefix}-checkout-live.adyenpayments.com/checkout/v71`)
    : new URL('https://checkout-test.adyen.com/v71');
  if (credentials.endpoint) {
    const endpoint = new URL(credentials.endpoint);
    base.protocol = endpoint.protocol;
    base.host = endpoint.host;
  }
  return base.toString().replace(/\/+$/, '');
}
