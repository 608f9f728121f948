import { requestText, RequestTimeoutError, type TextAnswer } from '../http-client/textRequest';
import type { DeclineCode } from './declineCodes';
import { ProcessorTechnicalError } from './types';

/**
 * The one place a processor's HTTP call happens, for every type: timeout, error classification,
 * secrets kept out of messages, timing. Adapters build the request and map the answer; they never
 * see a socket error. What reaches the adapter is a parsed JSON answer (`postJson`, `getJson`) or
 * the raw one (`sendHttp`, under the Stripe SDK) with a status of 2xx or 4xx; everything else
 * (timeout, network failure, a redirect, which is never followed, 5xx, and for the JSON calls a
 * body that is not JSON) is thrown as a ProcessorTechnicalError. Request bodies carry card numbers, so nothing here
 * logs or echoes them.
 */
export interface JsonAnswer {
  status: number;
  body: unknown;
  elapsedMs: number;
}

export interface JsonRequest {
  url: string;
  headers?: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /**
   * The code of a 5xx answer, for a vendor whose answer says more than its status (Adyen's
   * `Transient-Error: true` means nothing was processed). Default: `serverErrorCode` below.
   */
  classifyServerError?: (status: number, headers: AnswerHeaders) => DeclineCode;
}

export function postJson(request: JsonRequest): Promise<JsonAnswer> {
  return sendJson('POST', request);
}

/** A read (lookups): no body; its failures are classified like any other call's. */
export function getJson(request: Omit<JsonRequest, 'body'>): Promise<JsonAnswer> {
  return sendJson('GET', { ...request, body: undefined });
}

/**
 * One HTTP call as any processor makes it, JSON or not (the Stripe SDK sends forms through it):
 * the body is read whole within the timeout. What comes back is a 2xx or 4xx answer; everything
 * else is thrown as a ProcessorTechnicalError.
 */
export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  classifyServerError?: JsonRequest['classifyServerError'];
}

/** An answer's headers: lower-case names, a repeated header's values joined with ", ". */
export type AnswerHeaders = Readonly<Record<string, string>>;

export interface HttpAnswer {
  status: number;
  headers: AnswerHeaders;
  text: string;
  elapsedMs: number;
}

export async function sendHttp(call: HttpCall): Promise<HttpAnswer> {
  const started = performance.now();
  let response: TextAnswer;
  try {
    // node:http never follows a redirect: a processor answers; it never sends the engine (and the
    // card data it carries) elsewhere.
    response = await requestText({
      method: call.method,
      url: call.url,
      headers: call.headers,
      ...(call.body === undefined ? {} : { body: call.body }),
      timeoutMs: call.timeoutMs,
    });
  } catch (error) {
    if (error instanceof RequestTimeoutError) {
      throw new ProcessorTechnicalError(`processor did not answer within ${call.timeoutMs} ms`, 'timeout');
    }
    const failure = error as (Error & { code?: unknown }) | undefined;
    const neverConnected = typeof failure?.code === 'string' && neverConnectedCodes.has(failure.code);
    // A connection that never opened carried no request; any other network failure may have
    // dropped the answer to a request the processor received.
    throw new ProcessorTechnicalError(
      masked(`processor unreachable: ${describe(failure)}`, call.headers),
      neverConnected ? 'processor_unreachable' : 'network_error',
    );
  }
  const elapsedMs = Math.round(performance.now() - started);
  if (response.status >= 300 && response.status < 400) {
    // An integration failure, not followed. The request was received: its outcome is unknown.
    throw new ProcessorTechnicalError(
      `processor answered HTTP ${response.status} (a redirect, not followed)`,
      'invalid_response',
    );
  }
  if (response.status >= 500) {
    const code = call.classifyServerError?.(response.status, response.headers) ?? serverErrorCode(response.status);
    throw new ProcessorTechnicalError(`processor answered HTTP ${response.status}`, code);
  }
  return { status: response.status, headers: response.headers, text: response.text, elapsedMs };
}

/** Node's message, or its code when it has none (an AggregateError of every address tried). */
function describe(error: (Error & { code?: unknown }) | undefined): string {
  if (error?.message) return error.message;
  return typeof error?.code === 'string' ? error.code : 'network error';
}

async function sendJson(method: 'GET' | 'POST', request: JsonRequest): Promise<JsonAnswer> {
  const answer = await sendHttp({
    method,
    url: request.url,
    headers: {
      accept: 'application/json',
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...request.headers,
    },
    ...(method === 'POST' ? { body: JSON.stringify(request.body) } : {}),
    timeoutMs: request.timeoutMs,
    ...(request.classifyServerError ? { classifyServerError: request.classifyServerError } : {}),
  });
  try {
    return { status: answer.status, body: JSON.parse(answer.text) as unknown, elapsedMs: answer.elapsedMs };
  } catch {
    throw new ProcessorTechnicalError(
      `processor answered HTTP ${answer.status} with a body that is not JSON`,
      'invalid_response',
    );
  }
}

/** Headers that carry the credentials' secrets (the sandbox's and Stripe's bearer keys, Adyen's API key). */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'x-api-key']);

/**
 * A message from below (which may quote a header value it refused) with the call's secrets taken
 * out: these messages end up in payment records and logs.
 */
function masked(message: string, headers: Record<string, string>): string {
  const secrets = Object.entries(headers)
    .filter(([name]) => secretHeaders.has(name.toLowerCase()))
    .flatMap(([, value]) => [value, value.replace(/^(?:Bearer|Basic)\s+/i, '')])
    .filter((secret) => secret.length >= 4)
    .sort((a, b) => b.length - a.length);
  return secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), message);
}

const neverConnectedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** 503 says "not processed"; 504 is a timeout behind a gateway; any other 5xx may come after a charge. */
function serverErrorCode(status: number): 'processor_unavailable' | 'timeout' | 'processor_error' {
  if (status === 503) return 'processor_unavailable';
  if (status === 504) return 'timeout';
  return 'processor_error';
}
