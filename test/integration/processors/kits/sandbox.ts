import { randomUUID } from 'node:crypto';
import { getProcessorAdapter } from '../../../../src/processors/registry';
import { startSandbox, type RunningSandbox } from '../../../../simulators/server';
import { sharedCards, sharedDeclines, simulatorControl } from './shared';
import type { ProcessorKit } from './types';

/** The sandbox acquirer (simulators/acquirer) as `sandbox` or `sandbox_hosted3ds`. */
export function sandboxKit(type: 'sandbox' | 'sandbox_hosted3ds'): ProcessorKit {
  let sandbox: RunningSandbox | undefined;
  const url = () => sandbox!.url;
  return {
    type,
    async start() {
      sandbox = await startSandbox(0);
      // The first request pays for warming up fetch and the server.
      await fetch(`${url()}/health`);
    },
    stop: async () => sandbox?.stop(),
    cards: {
      ...sharedCards,
      declines: [
        ...sharedDeclines,
        ['4000000000009987', 'lost_card', 'hard_decline'],
        ['4000000000000101', 'do_not_honor', 'soft_decline'],
      ],
      hold: '4000000000000077',
      errorAfterCharge: '4000000000000515',
    },
    async account({ timeoutMs, holdMs }) {
      const merchantId = `m_${randomUUID()}`;
      const credentials = { merchantId, apiKey: 'sk_sandbox_ok', timeoutDelayMs: String(holdMs) };
      return {
        credentials,
        rejectedCredentials: { ...credentials, apiKey: 'invalid_key' },
        credentialsAt: (origin) => ({ ...credentials, endpoint: origin }),
        adapter: getProcessorAdapter(type, { sandboxUrl: url(), timeoutMs }),
        outage: (enabled) => simulatorControl(`${url()}/acquirer/outage`, { merchantId, enabled }, 200),
        async netCharged(paymentId) {
          const query = new URLSearchParams({ merchantId, reference: paymentId });
          const answer = await fetch(`${url()}/acquirer/ledger?${query.toString()}`);
          const { entries } = (await answer.json()) as {
            entries: { operation: string; outcome: string; amount: number }[];
          };
          const sum = (operation: string, outcome: string) =>
            entries.filter((e) => e.operation === operation && e.outcome === outcome).reduce((n, e) => n + e.amount, 0);
          return (
            sum('authorize', 'approved') -
            sum('reversal', 'succeeded') -
            sum('refund', 'succeeded') -
            sum('void', 'succeeded')
          );
        },
      };
    },
  };
}
