import { randomUUID } from 'node:crypto';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { searchAttributes } from '../../../temporal/searchAttributes';
import { addProcessingKey } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { api, ok } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, payV2, type PaymentTenant } from './paymentsFixtures';
import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';

const searchable = (described: WorkflowExecutionDescription) => ({
  StoreId: described.typedSearchAttributes.get(searchAttributes.StoreId),
  AccountId: described.typedSearchAttributes.get(searchAttributes.AccountId),
  CustomerId: described.typedSearchAttributes.get(searchAttributes.CustomerId),
  PaymentStatus: described.typedSearchAttributes.get(searchAttributes.PaymentStatus),
});

describe('pay-v2 and payments over HTTP (Postgres, dev server, sandbox acquirer)', () => {
  const harness = useHarness();

  it('pays a checkout session end to end: order paid, payment succeeded, one attempt, events, one charge', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const instrument = await t.instrument(cards.approve);
    const answer = await payV2(harness, t.token, { checkoutSessionId: checkout.id, paymentInstrumentId: instrument });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      order: { id: expect.stringMatching(/^ord_/), status: 'paid', totalAmount: 1999, currency: 'EUR' },
      payment: { id: expect.stringMatching(/^pay_/), status: 'succeeded', amount: 1999, currency: 'EUR' },
      redirectUrl: null,
    });
    const paymentId = answer.body.payment.id;
    const detail = await ok(harness, 'GET', `/payments/${paymentId}`, t.token);
    expect(detail).toMatchObject({
      status: 'succeeded',
      amountCaptured: 1999,
      orderId: answer.body.order.id,
      checkoutSessionId: checkout.id,
      processorId: t.processorIds[0],
    });
    expect(detail.attempts).toEqual([
      expect.objectContaining({ attemptNumber: 1, outcome: 'approved', processorId: t.processorIds[0] }),
    ]);
    const session = await ok(harness, 'GET', `/checkout-sessions/${checkout.id}`, t.token);
    expect(session.status).toBe('paid');
    const order = await ok(harness, 'GET', `/orders/${answer.body.order.id}`, t.token);
    expect(order.order.payments).toEqual([
      expect.objectContaining({ id: paymentId, status: 'succeeded', amount: 1999 }),
    ]);
    const events = await harness.db.event.findMany({
      where: { accountId: t.merchant.accountId },
      select: { eventType: true },
    });
    expect(events.map((e) => e.eventType).sort()).toEqual([
      's_checkout_session_paid',
      's_order_paid',
      's_payment_succeeded',
    ]);
    expect(await t.ledger(t.processorIds[0]!, { reference: paymentId })).toEqual([
      expect.objectContaining({
        operation: 'authorize',
        outcome: 'approved',
        amount: 1999,
        idempotencyKey: `${paymentId}:1`,
      }),
    ]);
    // Operators find the run in the Temporal UI under the payment id, by store, account, customer and status.
    const described = await harness.temporal.workflow.getHandle(paymentId).describe();
    expect(described.workflowId).toBe(paymentId);
    expect(described.type).toBe('paymentWorkflow');
    expect(searchable(described)).toEqual({
      StoreId: t.storeId,
      AccountId: t.merchant.accountId,
      CustomerId: t.customerId,
      PaymentStatus: 'succeeded',
    });

    // A paid session cannot be paid again.
    const again = await payV2(harness, t.token, { checkoutSessionId: checkout.id, paymentInstrumentId: instrument });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CHECKOUT_ALREADY_PAID');

    const listed = await ok(harness, 'POST', '/payments/list', t.token, { filters: { status: 'succeeded' } });
    expect(listed.data.map((p: any) => p.id)).toEqual([paymentId]);
  });

  it('answers a hard decline with 402 and a stable code; the failed payment and its attempt stay visible; the session stays payable', async () => {
    const t = await createPaymentTenant(harness, { processors: 2 });
    const checkout = await t.checkout();
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.hardDecline),
    });
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({
      code: 'card_declined',
      message: expect.any(String),
      data: { paymentId: expect.stringMatching(/^pay_/), status: 'failed', declineCode: 'card_declined' },
    });
    const detail = await ok(harness, 'GET', `/payments/${answer.body.data.paymentId}`, t.token);
    expect(detail).toMatchObject({ status: 'failed', declineCode: 'card_declined', declineCategory: 'hard_decline' });
    expect(detail.attempts).toHaveLength(1); // a hard decline never cascades to the second processor
    expect(
      searchable(await harness.temporal.workflow.getHandle(answer.body.data.paymentId).describe()).PaymentStatus,
    ).toBe('failed');

    const retry = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(retry.status).toBe(200);
  });

  it('cascades past a processor in outage (technical, retries spent) to the next one', async () => {
    const t = await createPaymentTenant(harness, { processors: 2 });
    await t.outage(t.processorIds[0]!, true);
    const checkout = await t.checkout();
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(answer.status).toBe(200);
    const detail = await ok(harness, 'GET', `/payments/${answer.body.payment.id}`, t.token);
    expect(detail.attempts.map((a: any) => [a.processorId, a.outcome, a.category])).toEqual([
      [t.processorIds[0], 'error', 'technical'],
      [t.processorIds[1], 'approved', null],
    ]);
  });

  it('replays the same Idempotency-Key + body, refuses it with another body, and charges once', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const body = { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve) };
    const key = randomUUID();
    const [first, concurrent] = await Promise.all([
      payV2(harness, t.token, body, { 'idempotency-key': key }),
      payV2(harness, t.token, body, { 'idempotency-key': key }),
    ]);
    expect(first.status).toBe(200);
    expect(concurrent.status).toBe(200);
    expect(concurrent.body).toEqual(first.body);
    const replay = await payV2(harness, t.token, body, { 'idempotency-key': key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await payV2(harness, t.token, { ...body, source: 'upsell' }, { 'idempotency-key': key });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await harness.db.payment.count({ where: { checkoutSessionId: checkout.id } })).toBe(1);
    expect(await t.ledger(t.processorIds[0]!)).toHaveLength(1);
    const record = await harness.db.idempotencyRecord.findFirstOrThrow({ where: { key } });
    expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  });

  it('never charges one session twice for two concurrent pay-v2 calls with different keys', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const body = { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve) };
    const answers = await Promise.all(
      [1, 2, 3].map(() => payV2(harness, t.token, body, { 'idempotency-key': randomUUID() })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await t.ledger(t.processorIds[0]!, { operation: 'authorize' })).toHaveLength(1);
    expect(await harness.db.order.count({ where: { checkoutSessionId: checkout.id } })).toBe(1);
  });

  it.each([
    ['ip', ['203.0.113.0/24']],
    ['email', ['@blocked.example']],
    ['card_bin', ['42424242']],
    ['country', ['US']],
  ])('blocks a payment by a %s rule before any processor is called', async (type, value) => {
    const t = await createPaymentTenant(harness);
    const customer = await ok(harness, 'POST', '/customers', t.token, {
      email: `fraud-${randomUUID()}@blocked.example`,
    });
    const customerId = type === 'email' ? customer.id : t.customerId;
    await ok(harness, 'POST', '/block-rules', t.token, { name: `no ${type}`, type, value });
    const checkout = await t.checkout(customerId);
    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve, customerId),
      customerIp: '203.0.113.9',
    });
    expect(answer.status).toBe(402);
    expect(answer.body.code).toBe('blocked_by_rule');
    const detail = await ok(harness, 'GET', `/payments/${answer.body.data.paymentId}`, t.token);
    expect(detail).toMatchObject({ status: 'failed', declineCode: 'blocked_by_rule' });
    expect(detail.attempts).toEqual([]);
    expect(await t.ledger(t.processorIds[0]!)).toEqual([]);
    const events = await harness.db.event.findMany({
      where: { accountId: t.merchant.accountId, eventType: 's_payment_blocked' },
    });
    expect(events).toHaveLength(1);
  });

  it('a processing key pays on its own stores only: another account’s store is 403', async () => {
    const t = await createPaymentTenant(harness);
    const other = await createPaymentTenant(harness);
    const { token } = await addProcessingKey(harness.db, t.merchant, [t.storeId]);
    const body = (tenant: PaymentTenant, instrument: string) => ({
      storeId: tenant.storeId,
      amount: 500,
      currency: 'EUR',
      paymentInstrumentId: instrument,
      customerId: tenant.customerId,
    });
    const own = await call(harness, 'POST', '/api/processing/v1/payments/process', {
      token,
      body: body(t, await t.instrument(cards.approve)),
    });
    expect(own.status).toBe(200);
    expect(own.body.payment).toMatchObject({ status: 'succeeded', amount: 500, currency: 'EUR' });
    const foreign = await call(harness, 'POST', '/api/processing/v1/payments/process', {
      token,
      body: body(other, await other.instrument(cards.approve)),
    });
    expect(foreign.status).toBe(403);
    expect(await other.ledger(other.processorIds[0]!)).toEqual([]);
    // A CRM key cannot use the processing domain.
    expect(
      (await call(harness, 'POST', '/api/processing/v1/payments/process', { token: t.token, body: body(t, 'pi_x') }))
        .status,
    ).toBe(403);
  });

  it('validates before any side effect: unknown instrument 404, bad blikCode 400, nothing written', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const missing = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: 'pi_doesnotexist',
    });
    expect(missing.status).toBe(404);
    const badBlik = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: 'pi_x',
      blikCode: '12345',
    });
    expect(badBlik.status).toBe(400);
    expect(await harness.db.payment.count({ where: { accountId: t.merchant.accountId } })).toBe(0);
    // The refused run still ends with a final status an operator can search for.
    const query = `StoreId = '${t.storeId}' AND PaymentStatus = 'rejected'`;
    const rejected = await until(async () => {
      const runs = [];
      for await (const run of harness.temporal.workflow.list({ query })) runs.push(run);
      return runs.length > 0 ? runs : undefined;
    });
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.status.name).toBe('COMPLETED');
    const process = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: { storeId: t.storeId, mode: 'purchase' },
    });
    expect(process.status).toBe(400);
  });
});
