import { searchAttributes } from '../../../temporal/searchAttributes';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { createPaymentTenant, payV2, type PaymentTenant } from '../payments/paymentsFixtures';
import { completeChallenge, threeDsCards } from '../threeds/threedsHelpers';
import { mugFunnel } from './funnelFixtures';

const publicBaseUrl = 'http://engine.test';

describe('funnel sessions: checkout → one-click upsell → thankyou', () => {
  const harness = useHarness({ PUBLIC_BASE_URL: publicBaseUrl });

  /** Two sandbox processors asking for 3DS, a 3DS flow over them, a funnel with a 9.90 EUR upsell. */
  async function shop() {
    const t = await createPaymentTenant(harness, { processors: 2, flow: { threeDsEnabled: true } });
    for (const processorId of t.processorIds)
      await ok(harness, 'POST', '/processors/update', t.token, { processorId, updatedData: { enable3DS: true } });
    return { t, ...(await mugFunnel(harness, t)) };
  }

  /** A checkout paid with a challenged card, on the second processor (the first is down for it). */
  async function paidCheckout(t: PaymentTenant): Promise<string> {
    await t.outage(t.processorIds[0]!, true);
    const checkout = await t.checkout();
    const started = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(threeDsCards.challenge),
    });
    expect(started.body.payment.status).toBe('requires_action');
    const { answer } = await completeChallenge(harness, started.body.redirectUrl, 'complete', publicBaseUrl);
    expect(answer.body.payment.status).toBe('succeeded');
    await t.outage(t.processorIds[0]!, false);
    return started.body.payment.id;
  }

  it('charges the accepted upsell on the checkout card and processor, without a second challenge', async () => {
    const { t, funnel, stepId } = await shop();
    const session = await ok(harness, 'POST', '/funnel-sessions', t.token, {
      funnelId: funnel.id,
      customerId: t.customerId,
    });
    expect(session).toMatchObject({ status: 'active', currentStepId: stepId('land') });
    expect(session.id).toMatch(/^fs_/);
    const checkoutPaymentId = await paidCheckout(t);

    const attached = await ok(harness, 'POST', `/funnel-sessions/${session.id}/checkout`, t.token, {
      paymentId: checkoutPaymentId,
    });
    expect(attached).toMatchObject({ currentStepId: stepId('up'), checkoutPaymentId });
    const answer = await ok(harness, 'POST', `/funnel-sessions/${session.id}/offers/answer`, t.token, {
      stepId: stepId('up'),
      accept: true,
    });
    expect(answer).toMatchObject({ status: 'succeeded', amount: 990, currency: 'EUR' });

    const upsell = await harness.db.payment.findUniqueOrThrow({ where: { id: answer.paymentId } });
    expect(upsell).toMatchObject({
      status: 'succeeded',
      source: 'upsell',
      initiatedBy: 'merchant',
      processorId: t.processorIds[1],
      orderId: answer.orderId,
    });
    const checkoutPayment = await harness.db.payment.findUniqueOrThrow({ where: { id: checkoutPaymentId } });
    expect(upsell.paymentInstrumentId).toBe(checkoutPayment.paymentInstrumentId);
    // One challenge in all: the checkout's. The upsell authenticated merchant-initiated (3RI), never challenged.
    const challenged = await harness.db.threeDsSession.findMany({
      where: { paymentId: { in: [checkoutPaymentId, upsell.id] } },
    });
    expect(challenged.filter((s) => s.challengeUrl !== null).map((s) => s.paymentId)).toEqual([checkoutPaymentId]);
    // The acquirer's ledger: one checkout charge and one upsell charge, both on the checkout's processor.
    const approved = (await t.ledger(t.processorIds[1]!, { operation: 'authorize' })).filter(
      (entry) => entry.outcome === 'approved',
    );
    expect(approved.map((entry) => entry.amount).sort()).toEqual([1999, 990].sort());
    const onFirst = await t.ledger(t.processorIds[0]!, { operation: 'authorize' });
    expect(onFirst.filter((entry) => entry.outcome === 'approved')).toHaveLength(0);
    const order = await harness.db.order.findUniqueOrThrow({ where: { id: answer.orderId } });
    expect(order).toMatchObject({ status: 'paid', source: 'upsell', totalAmount: 990, paymentId: upsell.id });
    const events = await harness.db.event.findMany({ where: { accountId: t.merchant.accountId, mode: 'test' } });
    expect(events.map((event) => event.eventType)).toContain('s_order_upsell_started');

    const done = await ok(harness, 'GET', `/funnel-sessions/${session.id}`, t.token);
    expect(done).toMatchObject({
      currentStepId: stepId('thanks'),
      answers: [{ stepId: stepId('up'), status: 'succeeded' }],
    });
  });

  it('charges a double-clicked accept once (ten concurrent requests), and refuses answers off the current step', async () => {
    const { t, funnel, stepId } = await shop();
    const session = await ok(harness, 'POST', '/funnel-sessions', t.token, { funnelId: funnel.id });
    const early = await call<any>(harness, 'POST', `${api}/funnel-sessions/${session.id}/offers/answer`, {
      token: t.token,
      body: { stepId: stepId('land'), accept: true },
    });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe('NOT_AN_OFFER_STEP');
    const checkoutPaymentId = await paidCheckout(t);
    await ok(harness, 'POST', `/funnel-sessions/${session.id}/checkout`, t.token, { paymentId: checkoutPaymentId });
    // Started without a customer: the run is searchable by the checkout's customer once it is attached.
    const described = await harness.temporal.workflow.getHandle(session.id).describe();
    expect(described.typedSearchAttributes.get(searchAttributes.CustomerId)).toBe(t.customerId);
    expect(described.typedSearchAttributes.get(searchAttributes.StoreId)).toBe(t.storeId);
    const wrongStep = await call<any>(harness, 'POST', `${api}/funnel-sessions/${session.id}/offers/answer`, {
      token: t.token,
      body: { stepId: stepId('down'), accept: true },
    });
    expect(wrongStep.status).toBe(409);
    expect(wrongStep.body.code).toBe('NOT_CURRENT_STEP');

    const clicks = await Promise.all(
      Array.from({ length: 10 }, () =>
        call<any>(harness, 'POST', `${api}/funnel-sessions/${session.id}/offers/answer`, {
          token: t.token,
          body: { stepId: stepId('up'), accept: true },
        }),
      ),
    );
    expect(clicks.map((click) => click.status)).toEqual(Array(10).fill(200));
    expect(new Set(clicks.map((click) => click.body.paymentId)).size).toBe(1);
    const upsells = await harness.db.payment.findMany({ where: { storeId: t.storeId, source: 'upsell' } });
    expect(upsells).toHaveLength(1);
    const approved = (await t.ledger(t.processorIds[1]!, { operation: 'authorize' })).filter(
      (entry) => entry.outcome === 'approved' && entry.amount === 990,
    );
    expect(approved).toHaveLength(1);
    expect(await harness.db.funnelOfferAnswer.count({ where: { sessionId: session.id } })).toBe(1);

    // The session ended at thankyou: a repeat of the same answer reads the recorded one, another answer is refused.
    const again = await ok(harness, 'POST', `/funnel-sessions/${session.id}/offers/answer`, t.token, {
      stepId: stepId('up'),
      accept: true,
    });
    expect(again.paymentId).toBe(clicks[0]!.body.paymentId);
    const declineLater = await call<any>(harness, 'POST', `${api}/funnel-sessions/${session.id}/offers/answer`, {
      token: t.token,
      body: { stepId: stepId('up'), accept: false },
    });
    expect(declineLater.status).toBe(409);
  });
});
