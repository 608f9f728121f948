import { ProcessorTechnicalError } from './types';

/**
 * The one place a processor adapter's HTTP call happens: timeout, error classification and
 * timing. Adapters build the request and map the answer; they never see a socket error. What
 * reaches the adapter is a parsed JSON answer with a status below 500; everything else (timeout,
 * network failure, 5xx, a body that is not JSON) is thrown as a ProcessorTechnicalError. Request
 * bodies carry card numbers, so nothing here logs or echoes them.
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
}

export async function postJson(request: JsonRequest): Promise<JsonAnswer> {
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error | undefined)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new ProcessorTechnicalError(`processor did not answer within ${request.timeoutMs} ms`, 'timeout');
    }
    throw new ProcessorTechnicalError(`processor unreachable: ${(error as Error | undefined)?.message ?? 'network error'}`, 'network_error');
  }
  const elapsedMs = Math.round(performance.now() - started);
  if (response.status >= 500) {
    throw new ProcessorTechnicalError(`processor answered HTTP ${response.status}`, response.status === 504 ? 'timeout' : 'processor_unavailable');
  }
  try {
    return { status: response.status, body: JSON.parse(text) as unknown, elapsedMs };
  } catch {
    throw new ProcessorTechnicalError(`processor answered HTTP ${response.status} with a body that is not JSON`, 'invalid_response');
  }
}
