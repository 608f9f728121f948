import { useMerchant } from '../../helpers/fixtures';
import { renewalDueState, runSubscription, stateOf } from '../../helpers/fixtures/subscriptions';
import { useHarness } from '../../helpers/useHarness';
import { threeDsCards } from '../threeds/threedsHelpers';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  createStore,
  eventually,
  testVaultEnv,
} from './subscriptionsFixtures';

describe('renewals on a 3-D Secure flow (real Postgres, Temporal dev server, sandbox acquirer + 3DS server)', () => {
  const harness = useHarness(testVaultEnv);
  const merchant = useMerchant(harness);

  async function ledger(acquirerMerchantId: string) {
    const answer = await fetch(
      `${harness.sandboxUrl}/acquirer/ledger?${new URLSearchParams({ merchantId: acquirerMerchantId, operation: 'authorize' }).toString()}`,
    );
    return ((await answer.json()) as { entries: { threeDs: string | null; amount: number }[] }).entries;
  }

  it('authenticates a merchant-initiated renewal with a 3RI merchant session (never challenged) and forwards its values', async () => {
    const store = await createStore(harness.db, merchant, 'Secure beans', { threeDs: true });
    const plan = await createRecurringPrice(harness.db, merchant, store.id, 'Secure monthly', 2500);
    const customer = await createCustomer(harness.db, merchant, `renewal-3ri-${Date.now()}@example.com`);
    // A card the 3DS server challenges on the browser channel: only 3RI gets it through unattended.
    const card = await createCard(harness.db, harness.config, merchant, customer.id, threeDsCards.challenge);

    // A subscription one paid period in: its renewal is due now.
    const state = renewalDueState({ merchant, storeId: store.id, plan, customerId: customer.id }, card.id);
    await runSubscription(harness, state);

    const renewed = await eventually(
      () => harness.db.subscription.findUniqueOrThrow({ where: { id: state.subscriptionId } }),
      (row) => row.paidOrdersCount === 2 || row.status === 'past_due',
    );
    expect(renewed).toMatchObject({ status: 'active', paidOrdersCount: 2, lastPaymentFailedAt: null });
    const order = await harness.db.order.findFirstOrThrow({
      where: { source: `subscription:${state.subscriptionId}` },
    });
    const payment = await harness.db.payment.findUniqueOrThrow({ where: { id: order.paymentId! } });
    expect(payment).toMatchObject({ status: 'succeeded', initiatedBy: 'merchant', amount: 2500 });
    // The renewal ran as a child of the subscription's workflow.
    const described = await harness.temporal.workflow.getHandle(payment.id).describe();
    expect(described.parentExecution?.workflowId).toBe(state.subscriptionId);

    const session = await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: payment.threedsSessionId! } });
    expect(session).toMatchObject({
      type: 'merchant',
      source: 'payment',
      status: 'authenticated',
      transStatus: 'Y',
      authenticationType: 'recurring-transaction',
      paymentId: payment.id,
      paymentInstrumentId: card.id,
      challengeUrl: null,
    });
    const [authorized] = await ledger(store.acquirerMerchantId);
    expect(authorized!.amount).toBe(2500);
    expect(JSON.parse(authorized!.threeDs!)).toEqual({
      eci: session.eci,
      authenticationValue: session.authenticationValue,
      transStatus: 'Y',
      dsTransID: session.dsTransID,
      acsTransID: session.acsTransID,
      threeDSServerTransID: session.threeDSServerTransID,
      messageVersion: session.messageVersion,
      type: 'merchant',
    });
    await harness.temporal.workflow.getHandle(state.subscriptionId).terminate('test over');
  });

  it('charges a renewal without 3DS when the flow does not ask for it', async () => {
    const store = await createStore(harness.db, merchant, 'Plain beans');
    const plan = await createRecurringPrice(harness.db, merchant, store.id, 'Plain monthly', 1200);
    const customer = await createCustomer(harness.db, merchant, `renewal-plain-${Date.now()}@example.com`);
    const card = await createCard(harness.db, harness.config, merchant, customer.id, threeDsCards.frictionless);
    const now = Date.now();
    const state = stateOf(
      { merchant, storeId: store.id, plan, customerId: customer.id },
      {
        price: 1200,
        paymentMethodId: card.id,
        startedAtMs: now,
        anchorAtMs: now,
      },
    );
    await runSubscription(harness, state);
    await eventually(
      () => harness.db.subscription.findUniqueOrThrow({ where: { id: state.subscriptionId } }),
      (row) => row.paidOrdersCount === 1,
    );
    const order = await harness.db.order.findFirstOrThrow({
      where: { source: `subscription:${state.subscriptionId}` },
    });
    expect(
      (await harness.db.payment.findUniqueOrThrow({ where: { id: order.paymentId! } })).threedsSessionId,
    ).toBeNull();
    const [authorized] = await ledger(store.acquirerMerchantId);
    expect(authorized!.threeDs).toBeNull();
    await harness.temporal.workflow.getHandle(state.subscriptionId).terminate('test over');
  });
});
