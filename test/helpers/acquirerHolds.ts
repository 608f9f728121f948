import { until } from './until';

/** A hold armed on the sandbox acquirer (simulators/acquirer/holds.ts). */
export interface AcquirerHold {
  holdId: string;
  /** Waits until the hold caught a call (the call is at the acquirer, not answered); gives its idempotency key. */
  holding(timeoutMs?: number): Promise<string>;
  release(): Promise<void>;
}

export async function armHold(
  sandboxUrl: string,
  match: { merchantId: string; idempotencyKey?: string; cardLast4?: string },
): Promise<AcquirerHold> {
  const armed = await fetch(`${sandboxUrl}/acquirer/_simulator/holds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(match),
  });
  if (armed.status !== 201) throw new Error(`arming a hold answered ${armed.status}: ${await armed.text()}`);
  const { holdId } = (await armed.json()) as { holdId: string };
  const url = `${sandboxUrl}/acquirer/_simulator/holds/${holdId}`;
  return {
    holdId,
    holding: (timeoutMs = 30_000) =>
      until(async () => {
        const hold = (await (await fetch(url)).json()) as { status: string; idempotencyKey: string | null };
        return hold.status === 'holding' ? hold.idempotencyKey! : undefined;
      }, timeoutMs),
    async release() {
      const released = await fetch(`${url}/release`, { method: 'POST' });
      if (released.status !== 200) throw new Error(`releasing hold ${holdId} answered ${released.status}`);
    },
  };
}
