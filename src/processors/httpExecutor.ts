import type { DeclineCode } from './declineCodes';
import { ProcessorTechnicalError } from './types';

/**
 * The one place a processor adapter's HTTP call happens: timeout, error classification and
 * timing. Adapters build the request and map the answer; they never see a socket error. What
 * reaches the adapter is a parsed JSON answer with a status of 2xx or 4xx; everything else (timeout,
 * network failure, a redirect, which is never followed, 5xx, a body that is not JSON) is thrown as
 * a ProcessorTechnicalError. Request bodies carry card numbers, so nothing here logs or echoes them.
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
  classifyServerError?: (status: number, headers: Headers) => DeclineCode;
}

export function postJson(request: JsonRequest): Promise<JsonAnswer> {
  return sendJson('POST', request);
}

/** A read (lookups): no body; its failures are classified like any other call's. */
export function getJson(request: Omit<JsonRequest, 'body'>): Promise<JsonAnswer> {
  return sendJson('GET', { ...request, body: undefined });
}

async function sendJson(method: 'GET' | 'POST', request: JsonRequest): Promise<JsonAnswer> {
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method,
      headers: {
        accept: 'application/json',
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      ...(method === 'POST' ? { body: JSON.stringify(request.body) } : {}),
      signal: AbortSignal.timeout(request.timeoutMs),
      // A processor answers; it never sends the engine (and the card data it carries) elsewhere.
      redirect: 'manual',
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error | undefined)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new ProcessorTechnicalError(`processor did not answer within ${request.timeoutMs} ms`, 'timeout');
    }
    const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
    const neverConnected = typeof cause?.code === 'string' && neverConnectedCodes.has(cause.code);
    // A connection that never opened carried no request; any other network failure may have
    // dropped the answer to a request the processor received.
    throw new ProcessorTechnicalError(
      `processor unreachable: ${(error as Error | undefined)?.message ?? 'network error'}`,
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
    const code = request.classifyServerError?.(response.status, response.headers) ?? serverErrorCode(response.status);
    throw new ProcessorTechnicalError(`processor answered HTTP ${response.status}`, code);
  }
  try {
    return { status: response.status, body: JSON.parse(text) as unknown, elapsedMs };
  } catch {
    throw new ProcessorTechnicalError(
      `processor answered HTTP ${response.status} with a body that is not JSON`,
      'invalid_response',
    );
  }
}

const neverConnectedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** 503 says "not processed"; 504 is a timeout behind a gateway; any other 5xx may come after a charge. */
function serverErrorCode(status: number): 'processor_unavailable' | 'timeout' | 'processor_error' {
  if (status === 503) return 'processor_unavailable';
  if (status === 504) return 'timeout';
  return 'processor_error';
}
