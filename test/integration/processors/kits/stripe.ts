import { randomBytes } from 'node:crypto';
import { getProcessorAdapter } from '../../../../src/processors/registry';
import { startStripeSimulator, type RunningStripeSimulator } from '../../../../simulators/vendors/stripe/server';
import { sharedCards, sharedDeclines, simulatorControl } from './shared';
import type { ProcessorKit } from './types';

interface SimulatedIntent {
  status: string;
  amount_capturable: number;
  amount_received: number;
  metadata: Record<string, string>;
  latest_charge: { amount_refunded: number } | string | null;
}

/** Stripe through the official SDK against the Stripe simulator (simulators/vendors/stripe). */
export function stripeKit(): ProcessorKit {
  let simulator: RunningStripeSimulator | undefined;
  const url = () => simulator!.url;
  const control = (path: string, body: unknown) => simulatorControl(`${url()}/_simulator/${path}`, body, 200);
  return {
    type: 'stripe',
    async start() {
      simulator = await startStripeSimulator();
    },
    stop: async () => simulator?.stop(),
    cards: {
      ...sharedCards,
      declines: [
        ...sharedDeclines,
        ['4000000000009987', 'lost_card', 'hard_decline'],
        ['4000000000009979', 'stolen_card', 'hard_decline'],
        ['4000000000000069', 'expired_card', 'hard_decline'],
        ['4000000000000127', 'incorrect_cvc', 'hard_decline'],
        ['4000000000005100', 'do_not_honor', 'soft_decline'],
      ],
      hold: '4000000000000077',
      errorAfterCharge: '4000000000005001',
    },
    async account({ timeoutMs, holdMs }) {
      const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
      await control('hold', { secretKey, ms: holdMs });
      const credentials = { secretKey, endpoint: url() };
      return {
        credentials,
        rejectedCredentials: { ...credentials, secretKey: 'sk_test_invalid0000' },
        credentialsAt: (origin) => ({ ...credentials, endpoint: origin }),
        adapter: getProcessorAdapter('stripe', { sandboxUrl: 'http://sandbox.unused.invalid', timeoutMs }),
        outage: (enabled) => control('outage', { secretKey, enabled }),
        async netCharged(paymentId) {
          const answer = await fetch(`${url()}/_simulator/intents?${new URLSearchParams({ secretKey }).toString()}`);
          const { intents } = (await answer.json()) as { intents: SimulatedIntent[] };
          return intents
            .filter((intent) => intent.metadata.payment_id === paymentId)
            .reduce((sum, intent) => {
              const refunded =
                typeof intent.latest_charge === 'object' ? (intent.latest_charge?.amount_refunded ?? 0) : 0;
              if (intent.status === 'succeeded') return sum + intent.amount_received - refunded;
              if (intent.status === 'requires_capture') return sum + intent.amount_capturable;
              return sum;
            }, 0);
        },
      };
    },
  };
}
