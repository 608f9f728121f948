import { paymentMethodChangedSignal } from '../../../workflows/subscriptions/messages';
import { call } from '../../helpers/harness';
import { useMerchant } from '../../helpers/fixtures';
import { renewalDueState, runSubscription } from '../../helpers/fixtures/subscriptions';
import { useHarness } from '../../helpers/useHarness';
import { completeChallenge, threeDsCards } from '../threeds/threedsHelpers';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  createStore,
  decliningCard,
  eventually,
  goodCard,
  testVaultEnv,
} from '../subscriptions/subscriptionsFixtures';

const publicBaseUrl = 'http://engine.test';

/**
 * A renewal that fails (merchant-initiated, so never stepped up) leaves the subscription past due;
 * its `subscription/payment_failed` event carries the portal link the dunning e-mail gives the
 * customer, whose session may only pay that renewal on-session (`renewals.pay`).
 */
describe('portal: paying a failed renewal on-session', () => {
  // The engine's public URL as browsers see it (the 3DS return link); the test maps it onto the harness.
  const harness = useHarness({ ...testVaultEnv, PUBLIC_BASE_URL: publicBaseUrl });
  const merchant = useMerchant(harness);

  /** A subscription one paid period in whose renewal (on a declining card) is due now; waits for past_due. */
  async function pastDueSubscription(options: { threeDs?: boolean } = {}) {
    const store = await createStore(harness.db, merchant, 'Beans', options);
    const plan = await createRecurringPrice(harness.db, merchant, store.id, 'Monthly', 2500);
    const customer = await createCustomer(harness.db, merchant, `paydue-${Date.now()}-${Math.random()}@example.com`);
    const declining = await createCard(harness.db, harness.config, merchant, customer.id, decliningCard);
    const good = await createCard(harness.db, harness.config, merchant, customer.id, goodCard);
    const challenged = await createCard(harness.db, harness.config, merchant, customer.id, threeDsCards.challenge);
    const state = renewalDueState({ merchant, storeId: store.id, plan, customerId: customer.id }, declining.id);
    await runSubscription(harness, state);
    await eventually(
      () => harness.db.subscription.findUniqueOrThrow({ where: { id: state.subscriptionId } }),
      (row) => row.status === 'past_due',
    );
    const failed = await eventually(
      () =>
        harness.db.event.findFirst({
          where: { accountId: merchant.accountId, eventType: 's_subscription_payment_failed', customerId: customer.id },
        }),
      (row) => row !== null,
    );
    return { state, store, customer, good, challenged, failedEvent: failed! };
  }

  const useCard = async (subscriptionId: string, paymentMethodId: string) => {
    await harness.db.subscription.update({ where: { id: subscriptionId }, data: { paymentMethodId } });
    await harness.temporal.workflow.getHandle(subscriptionId).signal(paymentMethodChangedSignal, { paymentMethodId });
  };

  const pay = (token: string, subscriptionId: string) =>
    call(harness, 'POST', '/api/v1/portal/renewals/pay', {
      body: { subscriptionId },
      headers: { 'x-cms-token': token },
    });

  it('ten concurrent portal payments of the failed renewal make one customer-initiated charge and recover it', async () => {
    const { state, customer, good, failedEvent } = await pastDueSubscription();
    const properties = failedEvent.properties as Record<string, string>;
    expect(properties.payOnSessionLink).toEqual(expect.any(String));

    // The customer puts a working card on the subscription, as the portal's default-card call does.
    await useCard(state.subscriptionId, good.id);

    const offer = await call(harness, 'POST', '/api/v1/cms/session/offer', {
      body: { link: properties.payOnSessionLink },
    });
    expect(offer.status).toBe(200);
    expect(offer.body.allowedActions).toEqual(['renewals.pay']);
    // The link pays this subscription only, and does nothing else.
    expect((await pay(offer.body.token, 'sub_someoneelse000001')).status).toBe(403);

    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(offer.body.token, state.subscriptionId)));
    const paid = answers.filter((answer) => answer.status === 200);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.body).toMatchObject({ status: 'paid', amountCharged: 2500, subscription: { status: 'active' } });
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(['SUBSCRIPTION_BUSY', 'NOTHING_DUE']).toContain(refused.body.code);
    }
    const payments = await harness.db.payment.findMany({
      where: { customerId: customer.id, status: 'succeeded', initiatedBy: 'customer' },
    });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 2500, id: paid[0]!.body.paymentId });
    const row = await harness.db.subscription.findUniqueOrThrow({ where: { id: state.subscriptionId } });
    expect(row).toMatchObject({ status: 'active', paidOrdersCount: 2 });

    const again = await pay(offer.body.token, state.subscriptionId);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOTHING_DUE');
  });

  it('a declined on-session payment changes nothing: still past due, dunning goes on', async () => {
    const { state, failedEvent } = await pastDueSubscription();
    const offer = await call(harness, 'POST', '/api/v1/cms/session/offer', {
      body: { link: (failedEvent.properties as Record<string, string>).payOnSessionLink },
    });
    const answer = await pay(offer.body.token, state.subscriptionId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'declined', amountCharged: 0, subscription: { status: 'past_due' } });
    expect(answer.body.declineCode).toEqual(expect.any(String));
  });

  it('answers requires_action when the on-session payment needs 3-D Secure, and recovers the renewal once the cardholder authenticates', async () => {
    const { state, customer, challenged, failedEvent } = await pastDueSubscription({ threeDs: true });
    await useCard(state.subscriptionId, challenged.id);
    const offer = await call(harness, 'POST', '/api/v1/cms/session/offer', {
      body: { link: (failedEvent.properties as Record<string, string>).payOnSessionLink },
    });
    const answer = await pay(offer.body.token, state.subscriptionId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'requires_action',
      amountCharged: 0,
      subscription: { status: 'past_due' },
    });
    expect(answer.body.redirectUrl).toEqual(expect.any(String));
    // While it waits for the cardholder, nothing else may charge the renewal.
    expect((await pay(offer.body.token, state.subscriptionId)).body.code).toBe('SUBSCRIPTION_BUSY');

    await completeChallenge(harness, answer.body.redirectUrl, 'complete', publicBaseUrl);
    const recovered = await eventually(
      () => harness.db.subscription.findUniqueOrThrow({ where: { id: state.subscriptionId } }),
      (row) => row.status === 'active',
    );
    expect(recovered.paidOrdersCount).toBe(2);
    const payments = await harness.db.payment.findMany({
      where: { customerId: customer.id, status: 'succeeded', initiatedBy: 'customer' },
    });
    expect(payments.map((payment) => payment.id)).toEqual([answer.body.paymentId]);
  });
});
