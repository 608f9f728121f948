import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards, payV2 } from './paymentsFixtures';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  createStore,
  eventually,
  goodCard,
  testVaultEnv,
} from '../subscriptions/subscriptionsFixtures';

/**
 * A payment's first workflow task holds its processor call, so every payment run, the API's and
 * the child payments of subscriptions, starts with the short workflow task timeout that notices a
 * killed worker in seconds (the server's default is 10 s).
 */
describe('payment runs start with a 4 s workflow task timeout', () => {
  const harness = useHarness(testVaultEnv);
  const t = usePaymentTenant(harness);

  const taskTimeoutMsOf = async (workflowId: string) => {
    const { raw } = await harness.temporal.workflow.getHandle(workflowId).describe();
    const timeout = raw.executionConfig?.defaultWorkflowTaskTimeout;
    return Number(timeout?.seconds ?? 0) * 1000 + Math.round((timeout?.nanos ?? 0) / 1e6);
  };

  it('a pay-v2 payment', async () => {
    const checkout = await t.checkout();
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(paid.status).toBe(200);
    expect(await taskTimeoutMsOf(paid.body.payment.id)).toBe(4_000);
  });

  it('a subscription’s first charge, a child payment of the subscription’s workflow', async () => {
    const store = await createStore(harness.db, t.merchant, 'Club');
    const price = await createRecurringPrice(harness.db, t.merchant, store.id, 'Monthly', 1500);
    const customer = await createCustomer(harness.db, t.merchant, `timeout-${Date.now()}@example.com`);
    const card = await createCard(harness.db, harness.config, t.merchant, customer.id, goodCard);
    const created = await call(harness, 'POST', `${api}/subscriptions`, {
      token: t.token,
      body: { storeId: store.id, customerId: customer.id, paymentMethodId: card.id, priceId: price.price.id },
    });
    expect(created.status).toBe(201);
    const payment = await eventually(
      () => harness.db.payment.findFirst({ where: { customerId: customer.id, status: 'succeeded' } }),
      (row) => row !== null,
    );
    expect(await taskTimeoutMsOf(payment!.id)).toBe(4_000);
    // The subscription's own run keeps the server's default.
    expect(await taskTimeoutMsOf(created.body.id)).toBe(10_000);
  });
});
