import { emailKinds } from '../../src/email/defaults';
import {
  customerName,
  emailKindOfEvent,
  emailOfRows,
  eventEmailWorkflowId,
  orderReceiptData,
  subscriptionEmailData,
} from '../../src/email/eventEmails';
import type { EventEmailRows } from '../../src/email/eventEmailRows';
import { renderTemplate } from '../../src/email/templates';

const customer = { email: 'ada@example.com', firstName: '<script>alert(1)</script>', lastName: null };
const store = { name: 'Tea & <Cakes>' };

describe('which events send which e-mail', () => {
  it('an order paid by a card payment sends the receipt; one paid by a subscription charge or credits does not', () => {
    const paid = { orderId: 'ord_1', amount: 1999, currency: 'EUR' };
    expect(emailKindOfEvent({ eventType: 's_order_paid', properties: { ...paid, paymentId: 'pay_1' } })).toBe(
      'order/paid',
    );
    expect(emailKindOfEvent({ eventType: 's_order_paid', properties: { ...paid, subscriptionId: 'sub_1' } })).toBe(
      null,
    );
    expect(
      emailKindOfEvent({ eventType: 's_order_paid', properties: { ...paid, paidWithCredits: 2, membershipId: 'm' } }),
    ).toBe(null);
  });

  it('renewals send the renewal receipt, failed renewals the notice; other events and test-trigger samples nothing', () => {
    expect(emailKindOfEvent({ eventType: 's_subscription_renewed', properties: {} })).toBe('subscription/renewed');
    expect(emailKindOfEvent({ eventType: 's_subscription_payment_failed', properties: {} })).toBe(
      'subscription/payment_failed',
    );
    for (const eventType of ['s_payment_succeeded', 's_checkout_session_paid', 's_subscription_created'])
      expect(emailKindOfEvent({ eventType, properties: { paymentId: 'pay_1' } })).toBe(null);
    expect(emailKindOfEvent({ eventType: 's_subscription_renewed', properties: { sample: true } })).toBe(null);
    expect(emailKindOfEvent({ eventType: 's_order_paid', properties: { paymentId: 'pay_1', sample: true } })).toBe(
      null,
    );
  });

  it('names one workflow per (event, e-mail)', () => {
    expect(eventEmailWorkflowId('evt_1', 'order/paid')).toBe('eml_evt_1_order_paid');
    expect(eventEmailWorkflowId('evt_1', 'subscription/payment_failed')).toBe('eml_evt_1_subscription_payment_failed');
  });
});

describe('what the templates get', () => {
  it('the customer’s name, or null without one', () => {
    expect(customerName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(customerName({ firstName: null, lastName: null })).toBe(null);
  });

  it('a receipt in the session’s language: amounts formatted for it, line titles translated where given', () => {
    const data = orderReceiptData({
      store,
      customer,
      order: { id: 'ord_1', totalAmount: 3498, subtotal: 3998, discountTotal: 500, currency: 'EUR' },
      locale: 'de-AT',
      lines: [
        { productName: 'Shirt', titleTrans: { de: 'Hemd' }, quantity: 2, amount: 3998 },
        { productName: 'Mug', titleTrans: null, quantity: 1, amount: 0 },
      ],
    });
    expect(data.language).toBe('de-AT');
    expect(data.order.total).toMatch(/^€\s34,98$/);
    expect(data.order.discount).toMatch(/5,00/);
    expect(data.order.lines.map((line) => line.title)).toEqual(['Hemd', 'Mug']);
  });

  it('a receipt without a session language is in English; no discount is null', () => {
    const data = orderReceiptData({
      store,
      customer,
      order: { id: 'ord_1', totalAmount: 300, subtotal: 300, discountTotal: 0, currency: 'JPY' },
      locale: null,
      lines: [],
    });
    expect(data).toMatchObject({ language: 'en', order: { total: '¥300', discount: null } });
  });

  it('the failed-renewal notice carries the pay-on-session link and the next retry day', () => {
    const data = subscriptionEmailData({
      store,
      customer,
      locale: null,
      subscription: { id: 'sub_1', amount: 2500, currency: 'USD', nextBillingAt: null },
      payOnSessionLink: 'abc.def',
      nextRetryAt: '2026-12-02T10:00:00.000Z',
    });
    expect(data.subscription).toEqual({
      reason: null,
      id: 'sub_1',
      amount: '$25.00',
      nextBillingDate: null,
      nextRetryDate: '2026-12-02',
    });
    expect(data.payOnSessionLink).toBe('abc.def');
  });
});

describe('an e-mail from the rows its one read returns', () => {
  const rows = (over: Partial<EventEmailRows>): EventEmailRows => ({
    event: { id: 'evt_1', accountId: 'acc_1', mode: 'test', eventType: 's_order_paid', properties: {}, draft: false },
    claim: null,
    order: null,
    subscription: null,
    lastLocale: null,
    store: { id: 'st_1', name: 'Tea & <Cakes>' },
    customer,
    template: null,
    ...over,
  });
  const order = {
    id: 'ord_1',
    totalAmount: 4998,
    subtotal: 4998,
    discountTotal: 0,
    currency: 'EUR',
    locale: 'de',
    items: [
      { productName: 'Shirt', quantity: 2, totalAmount: 3998 },
      { productName: 'Mug', quantity: 1, totalAmount: 1000 },
    ],
    // The session's second line is not the order's second item: its title does not carry over.
    sessionLines: [
      { productName: 'Shirt', titleTrans: { de: 'Hemd' } },
      { productName: 'Cup', titleTrans: { de: 'Tasse' } },
    ],
  };

  it('an order receipt: the session’s language, its lines’ titles where they match the items, the store and customer', () => {
    const built = emailOfRows('order/paid', rows({ order }));
    expect(built).toMatchObject({ storeId: 'st_1', recipient: 'ada@example.com' });
    const data = built!.data as ReturnType<typeof orderReceiptData>;
    expect(data.language).toBe('de');
    expect(data.order.lines).toEqual([
      { title: 'Hemd', quantity: 2, amount: expect.stringMatching(/^39,98\s€$/) },
      { title: 'Mug', quantity: 1, amount: expect.stringMatching(/^10,00\s€$/) },
    ]);
  });

  it('nothing to send without the order, the subscription, the store or a customer e-mail', () => {
    expect(emailOfRows('order/paid', rows({}))).toBeNull();
    expect(emailOfRows('order/paid', rows({ order, store: null }))).toBeNull();
    expect(emailOfRows('order/paid', rows({ order, customer: { ...customer, email: '' } }))).toBeNull();
    expect(emailOfRows('subscription/renewed', rows({ order }))).toBeNull();
  });

  it('a renewal e-mail: the event’s amount and dates over the subscription’s, the customer’s last checkout language', () => {
    const subscription = { id: 'sub_1', price: 2500, currency: 'USD', nextBillingAt: '2027-01-05T10:00:00.000Z' };
    const event = { ...rows({}).event!, eventType: 's_subscription_payment_failed' };
    const failed = emailOfRows(
      'subscription/payment_failed',
      rows({
        subscription,
        lastLocale: 'de',
        event: { ...event, properties: { amount: 3000, payOnSessionLink: 'a.b', nextRetryAt: '2027-01-02T00:00:00Z' } },
      }),
    );
    expect(failed!.data).toMatchObject({
      language: 'de',
      payOnSessionLink: 'a.b',
      subscription: { id: 'sub_1', nextBillingDate: '2027-01-05', nextRetryDate: '2027-01-02', reason: null },
    });
    expect((failed!.data as any).subscription.amount).toMatch(/^30,00\s\$$/);
    const renewed = emailOfRows('subscription/renewed', rows({ subscription, event }));
    expect(renewed!.data).toMatchObject({ language: 'en', subscription: { amount: '$25.00' } });
  });
});

describe('the engine’s defaults render the data escaped in HTML, as is in subject and text', () => {
  it('renewal receipt: a first charge says the subscription started', async () => {
    const base = {
      store,
      customer,
      locale: null,
      subscription: { id: 'sub_1', amount: 2500, currency: 'EUR', nextBillingAt: '2027-01-01T00:00:00.000Z' },
    };
    const template = emailKinds['subscription/renewed'];
    const first = await renderTemplate(template, subscriptionEmailData({ ...base, reason: 'first_charge' }));
    expect(first.subject).toBe('Your Tea & <Cakes> subscription has started');
    expect(first.text).toContain('Your subscription sub_1 has started: €25.00 paid.\nNext renewal: 2027-01-01.');
    const renewal = await renderTemplate(template, subscriptionEmailData({ ...base, reason: 'renewal' }));
    expect(renewal.subject).toBe('Your Tea & <Cakes> subscription was renewed');
  });

  it('order receipt', async () => {
    const data = orderReceiptData({
      store,
      customer,
      order: { id: 'ord_1', totalAmount: 100, subtotal: 100, discountTotal: 0, currency: 'EUR' },
      locale: null,
      lines: [{ productName: '<b>Mug</b>', quantity: 1, amount: 100 }],
    });
    const mail = await renderTemplate(emailKinds['order/paid'], data);
    expect(mail.subject).toBe('Your Tea & <Cakes> receipt for order ord_1');
    expect(mail.html).toContain('1 × &lt;b&gt;Mug&lt;/b&gt;: €1.00');
    expect(mail.html).toContain('<p>Tea &amp; &lt;Cakes&gt;</p>');
    expect(mail.text).toContain('- 1 x <b>Mug</b>: €1.00');
  });

  it('failed-renewal notice: the link in both parts when there is one, no sentence without it', async () => {
    const base = {
      store,
      customer,
      locale: null,
      subscription: { id: 'sub_1', amount: 2500, currency: 'EUR', nextBillingAt: null },
    };
    const template = emailKinds['subscription/payment_failed'];
    const withLink = await renderTemplate(template, subscriptionEmailData({ ...base, payOnSessionLink: 'a"b.c' }));
    expect(withLink.html).toContain('open your account with this link: a&#34;b.c</p>');
    expect(withLink.text).toContain('open your account with this link: a"b.c');
    const without = await renderTemplate(template, subscriptionEmailData(base));
    expect(without.text).not.toContain('link');
  });

  it('a template is parsed once and rendered with each call’s own data; one that cannot parse is refused every time', async () => {
    const source = { subject: 'Hi {{ name }}', bodyHtml: '<p>{{ name }}</p>', bodyText: null };
    expect(await renderTemplate(source, { name: 'Ada' })).toMatchObject({ subject: 'Hi Ada', html: '<p>Ada</p>' });
    expect(await renderTemplate(source, { name: '<b>' })).toMatchObject({
      subject: 'Hi <b>',
      html: '<p>&lt;b&gt;</p>',
    });
    const broken = { subject: 'ok', bodyHtml: '{% if %}', bodyText: null };
    for (let i = 0; i < 2; i++)
      await expect(renderTemplate(broken, {})).rejects.toMatchObject({ code: 'TEMPLATE_INVALID' });
  });
});
