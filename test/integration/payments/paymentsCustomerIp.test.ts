import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, payV2, type PaymentTenant } from './paymentsFixtures';

/**
 * IP block rules check the cardholder's address the merchant sends as `customerIp`, never the
 * address the request came from: that is the merchant's server (here loopback, 127.0.0.1).
 */
describe('IP block rules read customerIp from the body, not the caller', () => {
  const harness = useHarness();

  /** A tenant whose IP rules block the merchant server's own address and one cardholder network. */
  async function tenantWithIpRules() {
    const t = await createPaymentTenant(harness);
    await ok(harness, 'POST', '/block-rules', t.token, {
      name: 'the caller (merchant server)',
      type: 'ip',
      value: ['127.0.0.0/8', '::1', '::ffff:127.0.0.1'],
    });
    await ok(harness, 'POST', '/block-rules', t.token, { name: 'fraud net', type: 'ip', value: ['203.0.113.0/24'] });
    return t;
  }

  const paymentOf = (t: PaymentTenant, paymentId: string) => ok(harness, 'GET', `/payments/${paymentId}`, t.token);

  async function payCheckout(t: PaymentTenant, extra: Record<string, unknown>, headers: Record<string, string> = {}) {
    const checkout = await t.checkout();
    const body = { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve), ...extra };
    return payV2(harness, t.token, body, headers);
  }

  async function processPayment(t: PaymentTenant, extra: Record<string, unknown>) {
    return call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: {
        storeId: t.storeId,
        amount: 700,
        currency: 'EUR',
        paymentInstrumentId: await t.instrument(cards.approve),
        customerId: t.customerId,
        ...extra,
      },
    });
  }

  it('pay-v2 without customerIp: IP rules do not match the caller, and the payment records they were not evaluated', async () => {
    const t = await tenantWithIpRules();
    // A forwarded-for header names the caller's proxies, not the cardholder: it is not read either.
    const answer = await payCheckout(t, {}, { 'x-forwarded-for': '203.0.113.9' });
    expect(answer.status).toBe(200);
    expect(answer.body.payment.status).toBe('succeeded');
    expect(await paymentOf(t, answer.body.payment.id)).toMatchObject({ status: 'succeeded', ipRulesEvaluated: false });
  });

  it('pay-v2 with customerIp: IP rules are checked against it', async () => {
    const t = await tenantWithIpRules();
    const allowed = await payCheckout(t, { customerIp: '198.51.100.4' });
    expect(allowed.status).toBe(200);
    expect(await paymentOf(t, allowed.body.payment.id)).toMatchObject({
      status: 'succeeded',
      ipRulesEvaluated: true,
    });

    const blocked = await payCheckout(t, { customerIp: '203.0.113.9' });
    expect(blocked.status).toBe(402);
    expect(blocked.body.code).toBe('blocked_by_rule');
    expect(await paymentOf(t, blocked.body.data.paymentId)).toMatchObject({
      status: 'failed',
      declineCode: 'blocked_by_rule',
      ipRulesEvaluated: true,
    });
    expect(await t.ledger(t.processorIds[0]!, { reference: blocked.body.data.paymentId })).toEqual([]);
  });

  it('payments/process: the same, with IPv4 and IPv6 cardholder addresses', async () => {
    const t = await tenantWithIpRules();
    const without = await processPayment(t, {});
    expect(without.status).toBe(200);
    expect(await paymentOf(t, without.body.payment.id)).toMatchObject({
      status: 'succeeded',
      ipRulesEvaluated: false,
    });

    const v6 = await processPayment(t, { customerIp: '2001:db8::7' });
    expect(v6.status).toBe(200);
    expect(await paymentOf(t, v6.body.payment.id)).toMatchObject({ status: 'succeeded', ipRulesEvaluated: true });

    const blocked = await processPayment(t, { customerIp: '203.0.113.200' });
    expect(blocked.status).toBe(402);
    expect(blocked.body.code).toBe('blocked_by_rule');
    expect(await paymentOf(t, blocked.body.data.paymentId)).toMatchObject({ ipRulesEvaluated: true });
  });

  it('records nothing about IP rules when the account has none in force', async () => {
    const t = await createPaymentTenant(harness);
    await ok(harness, 'POST', '/block-rules', t.token, { name: 'mail', type: 'email', value: ['@nowhere.example'] });
    const answer = await processPayment(t, {});
    expect(answer.status).toBe(200);
    expect(await paymentOf(t, answer.body.payment.id)).toMatchObject({ status: 'succeeded', ipRulesEvaluated: null });
  });

  it('refuses a customerIp that is not an IPv4 or IPv6 address with 400 on both routes, writing nothing', async () => {
    const t = await tenantWithIpRules();
    for (const customerIp of ['not-an-ip', '999.1.1.1', '203.0.113.0/24', '', 42]) {
      const checkout = await payCheckout(t, { customerIp });
      expect({ customerIp, status: checkout.status, code: checkout.body.code }).toEqual({
        customerIp,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      const direct = await processPayment(t, { customerIp });
      expect({ customerIp, status: direct.status, code: direct.body.code }).toEqual({
        customerIp,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    expect(await harness.db.payment.count({ where: { accountId: t.merchant.accountId } })).toBe(0);
  });
});
