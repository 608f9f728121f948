import Stripe from 'stripe';
import { withEndpoint } from '../endpoint';
import { sendHttp, type HttpAnswer } from '../httpExecutor';
import { ProcessorTechnicalError } from '../types';
import type { StripeCredentials } from './credentials';

/** Stripe's API; `credentials.endpoint` replaces its scheme, host and port (paths stay `/v1/…`). */
export const stripeApiBase = 'https://api.stripe.com';

/** What the SDK hands its HTTP client: the answer, read whole by the executor. */
class ExecutorResponse extends Stripe.HttpClientResponse {
  constructor(private readonly answer: HttpAnswer) {
    super(answer.status, answer.headers);
  }

  override getRawResponse(): unknown {
    return { status: this.answer.status };
  }

  override toStream(): never {
    throw new Error('the engine reads no streamed Stripe answers');
  }

  override toJSON(): Promise<unknown> {
    return Promise.resolve().then(() => this._parseResponseBody(this.answer.text) as unknown);
  }
}

/**
 * The SDK's HTTP client is the shared executor (src/processors/httpExecutor.ts), so Stripe's calls
 * get the same timeout, redirect refusal, 5xx classification and secret masking as every other
 * processor's. What the executor throws reaches `technicalError` below as the SDK's connection
 * error's `detail`; a 2xx or 4xx answer is the SDK's to read (its card, idempotency and
 * invalid-request errors).
 */
class ExecutorHttpClient extends Stripe.HttpClient {
  override getClientName(): string {
    return 'payment-engine';
  }

  override async makeRequest(
    host: string,
    port: string,
    path: string,
    method: string,
    headers: Record<string, string | number | string[]>,
    requestData: string,
    protocol: string,
    timeout: number,
  ): Promise<ExecutorResponse> {
    const url = new URL(`${protocol === 'http' ? 'http' : 'https'}://${host}${path}`);
    url.port = String(port);
    const answer = await sendHttp({
      method,
      url: url.toString(),
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
      ),
      // A POST without parameters still sends an (empty) body, as the SDK's own clients do.
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: requestData || '' }),
      timeoutMs: timeout,
    });
    return new ExecutorResponse(answer);
  }
}

const httpClient = new ExecutorHttpClient();

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
  // Timeout, network failure, redirect, 5xx: classified by the executor, code kept.
  if (error instanceof Stripe.errors.StripeConnectionError && error.detail instanceof ProcessorTechnicalError)
    return new ProcessorTechnicalError(`stripe: ${error.detail.message}`, error.detail.code);
  if (error instanceof Stripe.errors.StripeConnectionError) return says('network_error', 'connection failed');
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError)
    return says('invalid_credentials', 'credentials rejected');
  if (error instanceof Stripe.errors.StripeRateLimitError) return says('rate_limited', 'rate limited');
  // 400 (the key was used for another request) or 409 (a request under the key is still running).
  if (isIdempotencyError(error))
    return says('idempotency_conflict', 'idempotency key in use or used for another request');
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return says('invalid_request', 'request refused');
  // No status: a 2xx or 4xx answer whose body is not Stripe's JSON.
  if (error.statusCode === undefined) return says('invalid_response', 'unreadable answer');
  // Another 4xx Stripe sends no error type for: the request may have been taken.
  return says('processor_error', `HTTP ${error.statusCode}`);
}
