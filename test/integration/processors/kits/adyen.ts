import { randomBytes } from 'node:crypto';
import { getProcessorAdapter } from '../../../../src/processors/registry';
import type { SimPayment } from '../../../../simulators/vendors/adyen/state';
import { startCheckedSimulator, type CheckedSimulator } from '../../../helpers/adyenSimulatorHarness';
import { sharedCards, sharedDeclines, simulatorControl } from './shared';
import type { ProcessorKit } from './types';

/**
 * Adyen Checkout v71 against the Adyen simulator (simulators/vendors/adyen), every request the
 * adapter sends checked against CheckoutService-v71.json (and every answer against its response
 * schema). One API key for the kit (Adyen keys idempotency per company account), one merchant
 * account per test account.
 */
export function adyenKit(): ProcessorKit {
  let checked: CheckedSimulator | undefined;
  const apiKey = `AQE_contract_${randomBytes(8).toString('hex')}`;
  const url = () => checked!.simulator.url;
  const control = (path: string, body: unknown) => simulatorControl(`${url()}/simulator/${path}`, body, 204);
  return {
    type: 'adyen',
    async start() {
      checked = await startCheckedSimulator({ apiKeys: [apiKey] });
      // The first request pays for warming up fetch and the server.
      await fetch(`${url()}/simulator/deliveries`);
    },
    stop: async () => checked?.simulator.stop(),
    problems: () => checked?.problems() ?? [],
    cards: {
      ...sharedCards,
      declines: [
        ...sharedDeclines,
        ['4000000000009987', 'pickup_card', 'hard_decline'],
        ['4000000000009979', 'fraudulent', 'hard_decline'],
        ['4000000000000069', 'expired_card', 'hard_decline'],
        ['4000000000000127', 'incorrect_cvc', 'hard_decline'],
        ['4000000000000101', 'do_not_honor', 'soft_decline'],
        ['4000000000000135', 'authentication_required', 'soft_decline'],
        ['4000000000000010', 'processing_error', 'technical'],
      ],
      // Processing takes the hold; meanwhile Adyen answers the key with 704 (in progress).
      hold: '4000000000000085',
      errorAfterCharge: '4000000000000515',
      // No card charges and then answers 5xx: the simulator's 5xx card (…0200) processes nothing.
    },
    async account({ timeoutMs, holdMs }) {
      const merchantAccount = `ContractECOM_${randomBytes(6).toString('hex')}`;
      await control('hold', { merchantAccount, ms: holdMs });
      const credentials = { apiKey, merchantAccount, endpoint: url() };
      return {
        credentials,
        rejectedCredentials: { ...credentials, apiKey: 'AQE_revoked_key' },
        credentialsAt: (origin) => ({ ...credentials, endpoint: origin }),
        adapter: getProcessorAdapter('adyen', { sandboxUrl: 'http://sandbox.unused.invalid', timeoutMs }),
        outage: (enabled) => control('outage', { merchantAccount, enabled }),
        netCharged: async (paymentId) =>
          (await adyenLedger(url(), merchantAccount, paymentId)).reduce((sum, p) => sum + standing(p), 0),
      };
    },
  };
}

/** The simulator's payments of a merchant account under one merchant reference (the engine's payment id). */
export async function adyenLedger(simulatorUrl: string, merchantAccount: string, reference: string) {
  const query = new URLSearchParams({ merchantAccount, reference });
  const answer = await fetch(`${simulatorUrl}/simulator/payments?${query.toString()}`);
  if (answer.status !== 200) throw new Error(`simulator payments answered ${answer.status}`);
  return ((await answer.json()) as { payments: SimPayment[] }).payments;
}

/** What a payment holds or has taken: the authorised amount until captured or cancelled, then captured minus refunded. */
export function standing(payment: SimPayment): number {
  if (payment.resultCode !== 'Authorised' || payment.cancelled) return 0;
  if (payment.captured > 0) return payment.captured - payment.refunded;
  return payment.manualCapture ? payment.amount.value : 0;
}
