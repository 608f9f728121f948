import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type WorkflowExecutionInfo } from '@temporalio/client';
import type { AuthContext } from '../../../src/http/core/context';
import { idempotencyScope, idOfKeyedRequest } from '../../../src/http/idempotency/middleware';
import { requestHashOf } from '../../../src/idempotency/requestHash';
import { idempotencyHashKey } from '../../../src/vault/cardVault';
import { dispatchEventsNow } from '../../../src/events/dispatch';
import { ensureMaintenanceWorkflow, systemAccountId } from '../../../src/runtime/worker';
import { searchAttributes } from '../../../temporal/searchAttributes';
import { checkoutExpiryWorkflowId } from '../../../workflows/commerce/checkoutExpiry';
import { eventOutboxWorkflowId } from '../../../workflows/events/outbox';
import { domainRecheckWorkflowId } from '../../../workflows/domains/recheck';
import { maintenanceWorkflowId } from '../../../workflows/maintenance/idempotencySweep';
import { addCrmKey, createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards, payV2 } from '../payments/paymentsFixtures';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  createStore,
  goodCard,
  testVaultEnv,
} from '../subscriptions/subscriptionsFixtures';
import { threeDsCards } from '../threeds/threedsHelpers';
import { startReceiver, type Receiver } from '../webhooks/webhookReceiver';

describe('workflow starts: ownership first, and every run carries AccountId (dev server visibility)', () => {
  const harness = useHarness(testVaultEnv);
  const t = usePaymentTenant(harness);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, token = t.token) =>
    call(harness, 'POST', `${api}${path}`, { token, body, headers });
  const process = async (mode: 'purchase' | 'auth') =>
    (
      await post('/payments/process', {
        storeId: t.storeId,
        customerId: t.customerId,
        currency: 'EUR',
        amount: 800,
        mode,
        paymentInstrumentId: await t.instrument(cards.approve),
      })
    ).body.payment.id as string;

  async function workflowExists(workflowId: string): Promise<boolean> {
    try {
      await harness.temporal.workflow.getHandle(workflowId).describe();
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }

  it("capture, void and refund of a payment that is not the caller's (account + mode) answer 404 and start no workflow", async () => {
    const stranger = await createMerchant(harness.db, { mode: 'test' });
    const foreign = await process('auth'); // t's test-mode payment: another account's for `stranger`, another mode's for the live key
    const liveToken = await addCrmKey(harness.db, t.merchant, { mode: 'live' });
    const scopeOf = (accountId: string, mode: 'test' | 'live'): string =>
      idempotencyScope({ kind: 'crm', accountId, mode } as AuthContext);
    const cases = [
      { token: t.token, scope: scopeOf(t.merchant.accountId, 'test'), paymentId: 'pay_doesnotexist0000000' },
      { token: stranger.token, scope: scopeOf(stranger.accountId, 'test'), paymentId: foreign },
      { token: liveToken, scope: scopeOf(t.merchant.accountId, 'live'), paymentId: foreign },
    ];
    for (const { token, scope, paymentId } of cases) {
      for (const operation of ['capture', 'void', 'refund'] as const) {
        const key = randomUUID();
        const answer = await post(`/payments/${operation}`, { paymentId }, { 'idempotency-key': key }, token);
        expect([operation, answer.status, answer.body]).toEqual([
          operation,
          404,
          { code: 'NOT_FOUND', message: 'Payment not found' },
        ]);
        const requestHash = requestHashOf(
          { method: 'POST', baseUrl: api, path: `/payments/${operation}`, body: { paymentId } },
          idempotencyHashKey(harness.config),
        );
        const binding = { scope, key, requestHash };
        // The ids the routes would derive had the payment been the caller's (refunds: of this payment).
        const workflowId =
          operation === 'refund'
            ? idOfKeyedRequest('refund', binding, 'refund', paymentId)
            : `${operation}_${paymentId}_${idOfKeyedRequest('request', binding, 'settlement', paymentId).slice(4)}`;
        expect([workflowId, await workflowExists(workflowId)]).toEqual([workflowId, false]);
      }
    }
    // The owner still can: the 404s above were about ownership, not the payment.
    expect((await post('/payments/void', { paymentId: foreign })).status).toBe(200);
  });

  it('every workflow a run of each kind starts carries AccountId (and StoreId where there is one)', async () => {
    // Webhook delivery (order/paid), the receipt, checkout payment.
    expect(
      (await post('/webhooks', { storeId: t.storeId, url: receiver.url, eventTypes: ['order/paid'] })).status,
    ).toBe(201);
    const checkout = await t.checkout();
    expect(
      (
        await payV2(harness, t.token, {
          checkoutSessionId: checkout.id,
          paymentInstrumentId: await t.instrument(cards.approve),
        })
      ).status,
    ).toBe(200);
    // The receipt went out with the payment's dispatch; the outbox sweep's dispatch (no e-mail sent
    // at once) gives an event's e-mail a workflow of its own.
    const paidEvent = await until(
      async () =>
        (await harness.db.event.findFirst({ where: { accountId: t.merchant.accountId, eventType: 's_order_paid' } })) ??
        undefined,
    );
    await dispatchEventsNow({ db: harness.db, temporal: harness.temporal, taskQueue: harness.taskQueue }, [
      paidEvent.id,
    ]);
    // Capture, void, refund.
    expect((await post('/payments/capture', { paymentId: await process('auth') })).status).toBe(200);
    expect((await post('/payments/void', { paymentId: await process('auth') })).status).toBe(200);
    expect((await post('/payments/refund', { paymentId: await process('purchase'), amount: 100 })).status).toBe(200);
    // 3-D Secure authentication.
    const threeDs = await post('/threeds/authenticate', {
      paymentInstrumentId: await t.instrument(threeDsCards.frictionless),
      storeId: t.storeId,
      purchaseInfo: { amount: 1999, currency: 'EUR' },
    });
    expect(threeDs.status).toBe(200);
    // A subscription and its first charge (a child payment workflow).
    const subStore = await createStore(harness.db, t.merchant, 'Club');
    const price = await createRecurringPrice(harness.db, t.merchant, subStore.id, 'Monthly', 1500);
    const customer = await createCustomer(harness.db, t.merchant, `sub-${randomUUID()}@example.com`);
    const card = await createCard(harness.db, harness.config, t.merchant, customer.id, goodCard);
    const subscription = await post('/subscriptions', {
      storeId: subStore.id,
      customerId: customer.id,
      paymentMethodId: card.id,
      priceId: price.price.id,
    });
    expect(subscription.status).toBe(201);
    // The engine's own singletons (npm start and npm run worker start them).
    await ensureMaintenanceWorkflow(harness.temporal, harness.taskQueue);

    const expectedTypes = [
      'paymentWorkflow',
      'paymentSettlementWorkflow',
      'refundWorkflow',
      'threeDsAuthenticationWorkflow',
      'subscriptionWorkflow',
      'webhookDeliveryWorkflow',
      'eventEmailWorkflow',
      'maintenanceWorkflow',
      'eventOutboxWorkflow',
      'checkoutExpiryWorkflow',
    ];
    try {
      // Everything on this file's task queue: what the steps above started, directly or not. The
      // singletons have fixed ids on a dev server shared by every file, so another file's worker may
      // have started them on its own queue first (ensureMaintenanceWorkflow then leaves them be).
      const singletons = [
        'maintenanceWorkflow',
        'eventOutboxWorkflow',
        'checkoutExpiryWorkflow',
        'domainRecheckWorkflow',
      ];
      const query = `TaskQueue = "${harness.taskQueue}" OR WorkflowType IN (${singletons.map((type) => `"${type}"`).join(', ')})`;
      let seen = '';
      const runs = await until(async () => {
        const listed: WorkflowExecutionInfo[] = [];
        for await (const run of harness.temporal.workflow.list({ query })) listed.push(run);
        const types = new Set(listed.map((run) => run.type));
        const subscriptionCharged = listed.filter((run) => run.type === 'paymentWorkflow').length >= 5;
        seen = JSON.stringify(listed.map((run) => `${run.type} ${run.status.name}`));
        return expectedTypes.every((type) => types.has(type)) && subscriptionCharged ? listed : undefined;
        // Generous: nine kinds of run, one a child payment of a subscription, on a dev server shared with other files.
      }, 90_000).catch((error: Error) => {
        throw new Error(`${error.message}; runs seen: ${seen}`);
      });
      const accountOf = (run: WorkflowExecutionInfo) => run.typedSearchAttributes.get(searchAttributes.AccountId);
      const withoutAccount = runs
        .filter((run) => accountOf(run) === undefined)
        .map((run) => `${run.type} ${run.workflowId}`);
      expect(withoutAccount).toEqual([]);
      for (const run of runs) {
        const expected = singletons.includes(run.type) ? systemAccountId : t.merchant.accountId;
        expect([run.workflowId, accountOf(run)]).toEqual([run.workflowId, expected]);
        // Every merchant run here belongs to a store.
        if (expected !== systemAccountId)
          expect([run.workflowId, run.typedSearchAttributes.get(searchAttributes.StoreId)]).toEqual([
            run.workflowId,
            expect.stringMatching(/^store_/),
          ]);
      }
    } finally {
      for (const workflowId of [
        maintenanceWorkflowId,
        eventOutboxWorkflowId,
        checkoutExpiryWorkflowId,
        domainRecheckWorkflowId,
      ]) {
        await harness.temporal.workflow
          .getHandle(workflowId)
          .terminate('test over')
          .catch(() => undefined);
      }
    }
  }, 180_000);
});
