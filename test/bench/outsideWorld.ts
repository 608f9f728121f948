import { startSandbox } from '../../simulators/server';
import { drive } from './setup';

/**
 * The bench's outside world in a process of its own (`startOutsideWorld`): the sandbox (acquirer,
 * outbox) the engine calls, and the load clients that call the engine's API, so that the engine's
 * process spends CPU only on the engine. Driven over the IPC channel: one `pay` message per row.
 */
export interface PayJob {
  token: string;
  checkoutSessionId: string;
  paymentInstrumentId: string;
}

export interface PayRequest {
  apiUrl: string;
  jobs: PayJob[];
  concurrency: number;
}

export interface PayResult {
  latencies: number[];
  ran: number;
  wallMs: number;
  lastPaymentId: string | undefined;
  /** user+system CPU of this process over the row, in ms. */
  cpuMs: number;
}

async function payV2(apiUrl: string, job: PayJob) {
  const answer = await fetch(`${apiUrl}/api/public/v1/checkout/pay-v2`, {
    method: 'POST',
    headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ checkoutSessionId: job.checkoutSessionId, paymentInstrumentId: job.paymentInstrumentId }),
  });
  const body = (await answer.json()) as { payment?: { id: string; status: string } };
  return { ok: answer.status === 200 && body.payment?.status === 'succeeded', paymentId: body.payment?.id };
}

async function main(): Promise<void> {
  const sandbox = await startSandbox(0);
  process.send!({ kind: 'ready', sandboxUrl: sandbox.url });
  process.on('message', async (message: { kind: 'pay'; request: PayRequest } | { kind: 'stop' }) => {
    if (message.kind === 'stop') {
      await sandbox.stop();
      process.disconnect();
      return;
    }
    const { apiUrl, jobs, concurrency } = message.request;
    let lastPaymentId: string | undefined;
    const before = process.cpuUsage();
    const result = await drive(jobs, concurrency, async (job) => {
      const answer = await payV2(apiUrl, job);
      lastPaymentId = answer.paymentId ?? lastPaymentId;
      return answer.ok;
    });
    const cpu = process.cpuUsage(before);
    process.send!({ kind: 'paid', result: { ...result, lastPaymentId, cpuMs: (cpu.user + cpu.system) / 1000 } });
  });
}

void main();
