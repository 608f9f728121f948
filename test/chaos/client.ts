/**
 * A client as a careful merchant writes one: every payment carries an `Idempotency-Key`; a
 * connection error, a 5xx, a 429 or a 409 IDEMPOTENCY_REQUEST_IN_PROGRESS is retried with the very
 * same request (Retry-After when given, else exponential backoff); a 202 `processing` is followed
 * by polling the payment until it is final.
 */
export interface Answer {
  status: number;
  body: any;
}

/** What the client went through before its final answer. */
export interface Troubles {
  connectionErrors: number;
  serverErrors: number;
  inProgress: number;
  rateLimited: number;
  /** 404 for a payment a 202 had named: its workflow had not written the row yet (its worker was down). */
  notYetVisible: number;
}

export const noTroubles = (): Troubles => ({
  connectionErrors: 0,
  serverErrors: 0,
  inProgress: 0,
  rateLimited: 0,
  notYetVisible: 0,
});

const terminalStatuses = new Set(['succeeded', 'failed', 'authorized', 'canceled', 'refunded', 'partially_refunded']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function backoffMs(retry: number): number {
  const ceiling = Math.min(4_000, 250 * 2 ** retry);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function retryAfterMs(response: Response, retry: number): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : backoffMs(retry);
}

/**
 * Sends until an answer the client must take (or `giveUpAt` passes: then the last answer, status 0
 * when the API was never reached).
 */
export async function sendUntilAnswered(
  apiUrl: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: { idempotencyKey?: string; troubles?: Troubles; giveUpAt?: number; retryNotFound?: boolean } = {},
): Promise<Answer> {
  const troubles = options.troubles ?? noTroubles();
  const giveUpAt = options.giveUpAt ?? Date.now() + 300_000;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  let last: Answer = { status: 0, body: null };
  for (let retry = 0; ; retry++) {
    let wait: number;
    try {
      const response = await fetch(`${apiUrl}/api/public/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      });
      const text = await response.text();
      last = { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
      if (response.status >= 500) {
        troubles.serverErrors++;
        wait = backoffMs(retry);
      } else if (response.status === 429) {
        troubles.rateLimited++;
        wait = retryAfterMs(response, retry);
      } else if (response.status === 404 && options.retryNotFound) {
        troubles.notYetVisible++;
        wait = backoffMs(retry);
      } else if (response.status === 409 && last.body?.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS') {
        troubles.inProgress++;
        wait = retryAfterMs(response, retry);
      } else {
        return last;
      }
    } catch {
      // Refused, reset or cut off mid-answer: the request may or may not have been processed.
      troubles.connectionErrors++;
      wait = backoffMs(retry);
    }
    if (Date.now() + wait > giveUpAt) return last;
    await sleep(wait);
  }
}

export interface PaymentJob {
  key: string;
  checkoutSessionId: string;
  paymentInstrumentId: string;
}

export interface PaymentRun {
  paymentId?: string;
  /** The payment's final status as the client last heard it (undefined: never final). */
  status?: string;
  /** HTTP status and error code of the last answer the client took. */
  finalHttp: number;
  finalCode?: string;
  elapsedMs: number;
  troubles: Troubles;
}

/** pay-v2 with an Idempotency-Key, then polling on 202, until the payment is final or `giveUpMs` pass. */
export async function payUntilTerminal(
  apiUrl: string,
  token: string,
  job: PaymentJob,
  giveUpMs: number,
): Promise<PaymentRun> {
  const started = performance.now();
  const giveUpAt = Date.now() + giveUpMs;
  const troubles = noTroubles();
  const body = { checkoutSessionId: job.checkoutSessionId, paymentInstrumentId: job.paymentInstrumentId };
  let answer = await sendUntilAnswered(apiUrl, token, 'POST', '/checkout/pay-v2', body, {
    idempotencyKey: job.key,
    troubles,
    giveUpAt,
  });
  const paymentId: string | undefined = answer.body?.payment?.id ?? answer.body?.data?.paymentId;
  let status: string | undefined = answer.body?.payment?.status ?? answer.body?.data?.status;
  while (
    paymentId &&
    (answer.status === 200 || answer.status === 202) &&
    !terminalStatuses.has(status ?? '') &&
    Date.now() < giveUpAt
  ) {
    await sleep(500);
    answer = await sendUntilAnswered(apiUrl, token, 'GET', `/payments/${paymentId}`, undefined, {
      troubles,
      giveUpAt,
      retryNotFound: true,
    });
    status = answer.body?.status;
  }
  const finalCode: string | undefined = answer.body?.code;
  return {
    paymentId,
    status: terminalStatuses.has(status ?? '') ? status : undefined,
    finalHttp: answer.status,
    finalCode,
    elapsedMs: performance.now() - started,
    troubles,
  };
}
