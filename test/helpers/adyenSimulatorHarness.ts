import { checkoutRequestErrors, checkoutResponseErrors } from './adyenSchemas';
import type { ObservedExchange } from '../../simulators/vendors/adyen/router';
import {
  startAdyenSimulator,
  type AdyenSimulatorOptions,
  type RunningAdyenSimulator,
} from '../../simulators/vendors/adyen/server';

/**
 * The Adyen simulator for a test file, with every exchange recorded: `problems()` lists each request
 * body Adyen's document would reject, each missing or over-long header, and each simulator answer
 * off the document's response schemas (a stored answer replayed under its key is checked against the
 * operation that first produced it, as Adyen replays it whatever the path). A file calls it after
 * each test so no request goes unchecked.
 */
export interface CheckedSimulator {
  simulator: RunningAdyenSimulator;
  requests: ObservedExchange[];
  /** Problems of the exchanges seen since the last call (then forgotten). */
  problems(): string[];
}

export async function startCheckedSimulator(options: AdyenSimulatorOptions = {}): Promise<CheckedSimulator> {
  const requests: ObservedExchange[] = [];
  const responses: ObservedExchange[] = [];
  let checkedRequests = 0;
  let checkedResponses = 0;
  /** Per API key and idempotency key, the path whose answer Adyen stored: a replay is that answer, checked as such. */
  const storedBy = new Map<string, string>();
  const answeredPath = (response: ObservedExchange): string => {
    const key = response.headers['idempotency-key'];
    if (typeof key !== 'string' || response.status === undefined || response.status < 200 || response.status >= 300)
      return response.path;
    const scope = `${String(response.headers['x-api-key'])}\u0000${key}`;
    if (!storedBy.has(scope)) storedBy.set(scope, response.path);
    return storedBy.get(scope)!;
  };
  const simulator = await startAdyenSimulator({
    ...options,
    onRequest: (exchange) => requests.push(exchange),
    onResponse: (exchange) => responses.push(exchange),
  });
  return {
    simulator,
    requests,
    problems() {
      const found: string[] = [];
      for (const request of requests.slice(checkedRequests)) {
        const where = `${request.method} ${request.path}`;
        found.push(...checkoutRequestErrors(request.path, request.body).map((error) => `${where}: ${error}`));
        const key = request.headers['idempotency-key'];
        if (typeof key !== 'string' || key.length === 0 || key.length > 64)
          found.push(`${where}: Idempotency-Key missing or over 64 characters`);
        if (typeof request.headers['x-api-key'] !== 'string') found.push(`${where}: x-api-key missing`);
        if (request.headers['content-type'] !== 'application/json') found.push(`${where}: not application/json`);
      }
      for (const response of responses.slice(checkedResponses)) {
        const where = `${response.method} ${response.path} → ${response.status}`;
        found.push(
          ...checkoutResponseErrors(answeredPath(response), response.status!, response.responseBody).map(
            (e) => `${where}: ${e}`,
          ),
        );
      }
      checkedRequests = requests.length;
      checkedResponses = responses.length;
      return found;
    },
  };
}
