import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './generated/api';

/** Every request and response body the engine declares, by its OpenAPI component name. */
export type Schemas = components['schemas'];

/** The engine's error body (`{message, code, issues?}`), as every operation declares it. */
export type ApiErrorBody = paths['/api/public/v1/health']['get']['responses'][400]['content']['application/json'];

export type PaymentClient = Client<paths>;

export interface PaymentClientOptions extends ClientOptions {
  /** The engine's origin, e.g. `http://127.0.0.1:3000` (paths carry their `/api/...` prefix). */
  baseUrl: string;
  /** An API key (`sk_crm_…` or `tp_sk_…`), sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
}

/**
 * A typed client over every operation of the engine's `/openapi.json`: paths, parameters, bodies
 * and each status's answer are checked by the compiler. Calls resolve to `{data, error, response}`:
 * `data` for a 2xx, `error` (an {@link ApiErrorBody}) otherwise; they never throw on an HTTP status.
 */
export function createPaymentClient({ apiKey, ...options }: PaymentClientOptions): PaymentClient {
  const client = createClient<paths>(options);
  if (apiKey) {
    client.use({
      onRequest({ request }) {
        request.headers.set('authorization', `Bearer ${apiKey}`);
        return request;
      },
    });
  }
  return client;
}
