import { runDemo } from '../../../src/demo/firstPayment';
import { createPartnerWithKey } from '../../../src/keys/partners';
import { formOf, nextYearShort, Shopper } from './hostedShopper';
import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';

describe('npm run demo: a first payment through the API and the hosted page', () => {
  const harness = useHarness();

  it('sets up a merchant and prints a hosted page link that takes a payment', async () => {
    const { partnerKey } = await createPartnerWithKey(harness.db, {
      name: 'Demo',
      mode: 'test',
      kind: 'payfac',
    });
    const result = await runDemo({
      apiUrl: harness.url,
      partnerKey,
      temporalUiUrl: 'http://localhost:8233',
      sandboxUrl: harness.sandboxUrl,
    });
    const printed = result.lines.join('\n');
    expect(printed).toContain(result.hostedPageUrl);
    expect(printed).toContain('4000 0000 0000 3220');
    expect(printed).toContain(`StoreId = "${result.storeId}"`);
    expect(result.webhookInboxUrl).toMatch(new RegExp(`^${harness.sandboxUrl}/inbox/demo_[a-f0-9]{8}$`));
    expect(printed).toContain(result.webhookInboxUrl);
    const shopper = new Shopper({ 'accept-language': 'de' });
    const page = await shopper.open(result.hostedPageUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Espressobohnen, 1 kg');
    const form = formOf(page.html, '/pay');
    const posted = await shopper.post(`${harness.url}${form.action}`, {
      ...form.fields,
      cardNumber: '4242 4242 4242 4242',
      expiry: `12 / ${nextYearShort}`,
      cvc: '123',
      cardholderName: 'Ada Lovelace',
    });
    expect(posted.status).toBe(303);
    expect((await shopper.open(posted.location!)).html).toContain('your payment went through');
    const payment = await harness.db.payment.findFirstOrThrow({
      where: { checkoutSessionId: result.checkoutSessionId },
    });
    expect(payment).toMatchObject({ status: 'succeeded', amount: 2490 + 2 * 1200 });
    // The curl lines work as printed: the key reads the session.
    const read = await fetch(`${harness.url}/api/public/v1/checkout-sessions/${result.checkoutSessionId}`, {
      headers: { authorization: `Bearer ${result.crmKey}` },
    });
    expect(((await read.json()) as { status: string }).status).toBe('paid');
    // The printed inbox receives the store's webhooks (signed by the endpoint the demo made).
    const delivered = await until(async () => {
      const inbox = (await (await fetch(result.webhookInboxUrl)).json()) as {
        data: { headers: Record<string, string>; json: { data?: { id?: string } } }[];
      };
      return inbox.data.find((delivery) => delivery.headers['x-webhook-event-type'] === 'payment/succeeded');
    });
    expect(delivered.headers['x-webhook-signature']).toMatch(/^t=\d+,v1=/);
    expect(JSON.stringify(delivered.json)).toContain(payment.id);
  });
});
