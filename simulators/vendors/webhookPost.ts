/**
 * How the vendor simulators deliver a webhook: POST the body, retried until a 2xx (a few tries
 * here, after `delayMs × try` each), recording what happened on `delivery` for tests to read.
 */
export interface DeliveryRecord {
  attempts: number;
  /** HTTP status of the last try; undefined while pending or when it never got an answer. */
  status?: number;
  error?: string;
}

const tries = 3;

export async function postUntilAccepted(
  request: { url: string; headers: Record<string, string>; body: string },
  delivery: DeliveryRecord,
  timing: { delayMs: number; stopped: () => boolean },
): Promise<void> {
  for (let attempt = 1; attempt <= tries && !timing.stopped(); attempt++) {
    await sleep(timing.delayMs * attempt);
    if (timing.stopped()) return;
    delivery.attempts = attempt;
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(5_000),
      });
      delivery.status = response.status;
      delete delivery.error;
      await response.arrayBuffer();
      if (response.ok) return;
    } catch (error) {
      delivery.error = (error as Error).message;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
