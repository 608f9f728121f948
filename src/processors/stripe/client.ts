import Stripe from 'stripe';
import { withEndpoint } from '../endpoint';
import { ProcessorTechnicalError } from '../types';
import type { StripeCredentials } from './credentials';

/** Stripe's API; `credentials.endpoint` replaces its scheme, host and port (paths stay `/v1/…`). */
export const stripeApiBase = 'https://api.stripe.com';

const redirectCode = 'PROCESSOR_REDIRECT';

/**
 * Node's HTTP client under the SDK, refusing redirects: the SDK does not follow them, but it would
 * read a 3xx answer's JSON body as Stripe's answer. A redirect is an integration failure instead.
 */
function redirectRefusingHttpClient(): Stripe.HttpClient {
  const inner = Stripe.createNodeHttpClient();
  const client: Pick<Stripe.HttpClient, 'getClientName' | 'makeRequest'> = {
    getClientName: () => inner.getClientName(),
    async makeRequest(...args) {
      const response = await inner.makeRequest(...args);
      const status = response.getStatusCode();
      if (status < 300 || status >= 400) return response;
      void response.toJSON().catch(() => undefined);
      throw Object.assign(new Error(`HTTP ${status} (a redirect, not followed)`), { code: redirectCode });
    },
  };
  return client as Stripe.HttpClient;
}

const httpClient = redirectRefusingHttpClient();

/**
 * The official SDK as the client. Retries are the engine's (the activity's retry policy, under
 * the same Idempotency-Key), so the SDK makes none of its own.
 */
export function stripeClient(credentials: StripeCredentials, timeoutMs: number): Stripe {
  const base = new URL(withEndpoint(stripeApiBase, credentials.endpoint));
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(credentials.secretKey, {
    host: base.hostname,
    port: base.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 0,
    httpClient,
    timeout: timeoutMs,
    telemetry: false,
    appInfo: { name: 'payment-engine' },
  });
}

/** A business refusal Stripe answered (a decline, a capture of a canceled intent …), as data. */
export interface StripeRefusal {
  vendorCode: string;
  message: string;
  /** The PaymentIntent the error names (Stripe attaches it to card errors and state errors). */
  intent?: { id: string; status: string };
}

/** Invalid-request codes that are refusals of the operation, not mistakes in the request. */
const refusalCodes = new Set([
  'resource_missing',
  'payment_intent_unexpected_state',
  'payment_intent_authentication_failure',
  'charge_already_captured',
  'charge_already_refunded',
  'charge_expired_for_capture',
  'amount_too_large',
  'amount_too_small',
]);

const neverConnectedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Sorts an SDK error: a refusal comes back as data; every integration failure is thrown as a
 * ProcessorTechnicalError whose code says whether the request may have been processed.
 */
export function refusalOf(error: unknown): StripeRefusal {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  const raw = error.raw as { payment_intent?: { id?: unknown; status?: unknown } } | undefined;
  const intent =
    typeof raw?.payment_intent?.id === 'string'
      ? { id: raw.payment_intent.id, status: String(raw.payment_intent.status) }
      : undefined;
  const refusal = (vendorCode: string): StripeRefusal => ({ vendorCode, message: error.message, intent });
  if (error instanceof Stripe.errors.StripeCardError)
    return refusal(error.decline_code || error.code || 'card_declined');
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code && refusalCodes.has(error.code))
    return refusal(error.code);
  throw technicalError(error);
}

export function isIdempotencyError(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeIdempotencyError ||
    (error instanceof Stripe.errors.StripeError && error.rawType === 'idempotency_error')
  );
}

function technicalError(error: InstanceType<typeof Stripe.errors.StripeError>): ProcessorTechnicalError {
  const says = (code: ConstructorParameters<typeof ProcessorTechnicalError>[1], what: string) =>
    new ProcessorTechnicalError(`stripe: ${what}: ${error.message}`, code);
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const cause = (error.detail ?? {}) as { code?: unknown; message?: unknown };
    if (cause.code === 'ETIMEDOUT') return says('timeout', 'no answer in time');
    // The request was received and answered with a redirect: its outcome is unknown.
    if (cause.code === redirectCode) return says('invalid_response', String(cause.message));
    // A connection that never opened carried no request; any other failure may have lost the answer.
    return typeof cause.code === 'string' && neverConnectedCodes.has(cause.code)
      ? says('processor_unreachable', 'unreachable')
      : says('network_error', 'connection failed');
  }
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError)
    return says('invalid_credentials', 'credentials rejected');
  if (error instanceof Stripe.errors.StripeRateLimitError) return says('rate_limited', 'rate limited');
  // 400 (the key was used for another request) or 409 (a request under the key is still running).
  if (isIdempotencyError(error))
    return says('idempotency_conflict', 'idempotency key in use or used for another request');
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return says('invalid_request', 'request refused');
  const status = error.statusCode;
  if (status === 503) return says('processor_unavailable', 'HTTP 503');
  if (status === 504) return says('timeout', 'HTTP 504');
  if (status === undefined) return says('invalid_response', 'unreadable answer');
  // Any other 5xx may come after the charge was made.
  return says('processor_error', `HTTP ${status}`);
}
