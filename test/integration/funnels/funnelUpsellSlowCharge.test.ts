import { call } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, payV2, untilSettled } from '../payments/paymentsFixtures';
import { mugFunnel } from './funnelFixtures';

// The engine answers within 4 s (the deadline also bounds starting the session, so not less on a
// loaded machine); the acquirer holds the timeout card for 10 s, well inside the 20 s the engine
// waits for a processor call. So the upsell's charge outlasts both accepts' answers and still succeeds.
const answerDeadlineMs = '4000';
const acquirerHoldMs = '10000';

describe('an upsell whose charge outlasts the answer deadline (Postgres, dev server, sandbox acquirer)', () => {
  const harness = useHarness({ PAYMENT_RESPONSE_TIMEOUT_MS: answerDeadlineMs, PROCESSOR_TIMEOUT_MS: '20000' });

  it('answers 202 with the payment id, charges once, and the payment and session then settle', async () => {
    // The checkout is paid with the card the acquirer holds, while it holds it for 0 ms.
    const t = await createPaymentTenant(harness, { credentials: { timeoutDelayMs: '0' } });
    const processorId = t.processorIds[0]!;
    const { funnel, stepId } = await mugFunnel(harness, t);
    const session = await ok(harness, 'POST', '/funnel-sessions', t.token, {
      funnelId: funnel.id,
      customerId: t.customerId,
    });
    const checkout = await t.checkout();
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.timeout),
    });
    expect(paid.body.payment).toMatchObject({ status: 'succeeded', amount: 1999 });
    await ok(harness, 'POST', `/funnel-sessions/${session.id}/checkout`, t.token, { paymentId: paid.body.payment.id });

    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId,
      updatedData: { credentials: { merchantId: t.acquirerMerchant[processorId]!, timeoutDelayMs: acquirerHoldMs } },
    });
    const accept = () =>
      call<any>(harness, 'POST', `${api}/funnel-sessions/${session.id}/offers/answer`, {
        token: t.token,
        body: { stepId: stepId('up'), accept: true },
      });
    const answer = await accept();
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      stepId: stepId('up'),
      accept: true,
      status: 'processing',
      paymentId: expect.stringMatching(/^pay_/),
      orderId: null,
      amount: null,
      currency: null,
      declineCode: null,
    });
    const paymentId = answer.body.paymentId;

    // The same click again while the charge runs: the same payment, no second charge.
    const again = await accept();
    expect(again.body.paymentId).toBe(paymentId);

    const settled = await untilSettled(harness, t.token, paymentId);
    expect(settled).toMatchObject({ status: 'succeeded', amount: 990, currency: 'EUR', processorId });
    const done = await until(async () => {
      const view = await ok(harness, 'GET', `/funnel-sessions/${session.id}`, t.token);
      return view.currentStepId === stepId('thanks') ? view : undefined;
    });
    expect(done.answers).toEqual([
      expect.objectContaining({ stepId: stepId('up'), status: 'succeeded', paymentId, amount: 990 }),
    ]);
    // Answered after the charge settled, the repeat is the recorded answer, with its order.
    const afterwards = await accept();
    expect(afterwards.status).toBe(200);
    expect(afterwards.body).toMatchObject({ status: 'succeeded', paymentId, orderId: expect.stringMatching(/^ord_/) });

    const approved = (await t.ledger(processorId, { operation: 'authorize' })).filter(
      (entry) => entry.outcome === 'approved',
    );
    expect(approved.map((entry) => entry.amount).sort()).toEqual([1999, 990].sort());
  });
});
