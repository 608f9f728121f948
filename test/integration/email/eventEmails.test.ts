import { randomUUID } from 'node:crypto';
import { formatAmount } from '../../../src/checkout/hostedPage/pageData';
import { newId } from '../../../src/domain/ids';
import { claimLeaseMs, EmailClaimBusyError, sendEventEmail } from '../../../src/email/sendEventEmail';
import { dispatchEventsNow } from '../../../src/events/dispatch';
import { recordEvent } from '../../../src/events/recordEvent';
import { createMailer } from '../../../src/portal/mailer';
import { createMerchant, type Merchant } from '../../helpers/fixtures';
import { until } from '../../helpers/until';
import { renewalDueState, runSubscription } from '../../helpers/fixtures/subscriptions';
import { useHarness } from '../../helpers/useHarness';
import { ok } from '../commerce/commerceHelpers';
import { recordPaidOrder } from './receiptFixtures';
import { cards, createPaymentTenant, payV2, type PaymentTenant } from '../payments/paymentsFixtures';
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

describe('e-mails after money moves: receipts and the failed-renewal notice (real Postgres, Temporal, outbox)', () => {
  const harness = useHarness({ ...testVaultEnv, PUBLIC_BASE_URL: 'http://engine.test' });

  const mailbox = async (to: string): Promise<any[]> =>
    ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${encodeURIComponent(to)}`)).json()) as any).data;
  const mailOf = (to: string, eventId: string) =>
    until(async () => (await mailbox(to)).find((mail) => mail.meta.eventId === eventId));
  const orderPaidEvent = (orderId: string) =>
    until(
      async () =>
        (await harness.db.event.findFirst({
          where: { eventType: 's_order_paid', properties: { path: ['orderId'], equals: orderId } },
        })) ?? undefined,
    );

  /** A customer named `firstName` pays a German checkout of the tenant's product; answers the order and its event. */
  async function paidCheckout(t: PaymentTenant, firstName: string) {
    const email = `receipt-${randomUUID()}@example.com`;
    const customer = await ok(harness, 'POST', '/customers', t.token, { email, firstName, lastName: 'Lovelace' });
    const session = await ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: t.storeId,
      customerId: customer.id,
      locale: 'de',
      lineItems: [{ priceId: t.priceId, quantity: 2, titleTrans: { de: 'Hemd' } }],
    });
    const instrument = await t.instrument(cards.approve, customer.id);
    const paid = await payV2(harness, t.token, { checkoutSessionId: session.id, paymentInstrumentId: instrument });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.status).toBe('succeeded');
    const orderId: string = paid.body.order.id;
    return { email, orderId, event: await orderPaidEvent(orderId) };
  }

  it('a paid checkout mails one receipt from the store’s template, the customer’s name escaped, in the session’s language', async () => {
    const t = await createPaymentTenant(harness);
    const template = await ok(harness, 'POST', '/email-templates/create', t.token, {
      storeId: t.storeId,
      name: 'Receipt',
      eventType: 'order/paid',
      subject: '{% if language == "de" %}Beleg{% else %}Receipt{% endif %} {{ order.id }} for {{ customer.name }}',
      bodyHtml: '<p>Hi {{ customer.name }}</p>{% for line in order.lines %}<li>{{ line.title }}</li>{% endfor %}',
    });
    const name = '<script>alert(1)</script>';
    const { email, orderId, event } = await paidCheckout(t, name);
    const mail = await mailOf(email, event.id);
    expect(mail.subject).toBe(`Beleg ${orderId} for ${name} Lovelace`);
    expect(mail.html).toBe('<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; Lovelace</p><li>Hemd</li>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.meta).toMatchObject({ kind: 'order/paid', storeId: t.storeId, templateId: template.id });
    // The row is marked sent by the dispatch's last statement, just after the mail left.
    await until(() =>
      harness.db.sentEmail
        .findFirst({ where: { eventId: event.id, sentAt: { not: null } } })
        .then((row) => row ?? undefined),
    );
    const rows = await harness.db.sentEmail.findMany({ where: { eventId: event.id } });
    expect(rows).toEqual([
      expect.objectContaining({
        kind: 'order/paid',
        recipient: email,
        subject: mail.subject,
        sentAt: expect.any(Date),
      }),
    ]);
    expect(await mailbox(email)).toHaveLength(1);
  });

  it('without a template of that kind the engine’s default receipt is sent, amounts in the shopper’s language', async () => {
    const t = await createPaymentTenant(harness);
    const { email, orderId, event } = await paidCheckout(t, 'Ada');
    const mail = await mailOf(email, event.id);
    expect(mail.subject).toBe(`Your Shop receipt for order ${orderId}`);
    const total = formatAmount(3998, 'EUR', 'de');
    expect(total).toMatch(/^39,98\s€$/);
    expect(mail.text).toContain(`Order ${orderId}: ${total} paid.`);
    expect(mail.text).toContain(`2 x Hemd: ${total}`);
    expect(mail.meta.templateId).toBeUndefined();
  });

  /** Whether a workflow with this id was ever started on the server. */
  const workflowExists = (workflowId: string) =>
    harness.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => true,
        (error: Error) => {
          if (error.name === 'WorkflowNotFoundError') return false;
          throw error;
        },
      );

  it('the payment’s event dispatch sends the receipt itself: no e-mail workflow runs for it', async () => {
    const t = await createPaymentTenant(harness);
    const { email, event } = await paidCheckout(t, 'Lin');
    await mailOf(email, event.id);
    await eventually(
      () => harness.db.event.findUniqueOrThrow({ where: { id: event.id } }),
      (row) => row.processedAt !== null,
    );
    expect(await workflowExists(`eml_${event.id}_order_paid`)).toBe(false);
    expect(await harness.db.sentEmail.count({ where: { eventId: event.id, sentAt: { not: null } } })).toBe(1);
  });

  it('a receipt the dispatch fails to send is handed to its workflow, which sends it once', async () => {
    const { email, eventId } = await recordPaidOrder(harness, 'test');
    let tries = 0;
    const failingMailer = {
      send: async () => {
        tries += 1;
        throw new Error('mail server unreachable');
      },
      close: () => undefined,
    };
    const deps = { db: harness.db, temporal: harness.temporal, taskQueue: harness.taskQueue };
    const dispatched = await dispatchEventsNow(
      { ...deps, emailNow: { ...deps, logger: harness.logger, mailer: failingMailer } },
      [eventId],
    );
    expect(tries).toBe(1);
    expect(dispatched.workflowIds).toEqual([`eml_${eventId}_order_paid`]);
    const outcome = await harness.temporal.workflow.getHandle(`eml_${eventId}_order_paid`).result();
    expect(outcome).toMatchObject({ outcome: 'sent' });
    await mailOf(email, eventId);
    expect((await mailbox(email)).filter((mail) => mail.meta.eventId === eventId)).toHaveLength(1);
    expect(await harness.db.sentEmail.count({ where: { eventId } })).toBe(1);
  });

  it('ten concurrent dispatches of one event, ten that send at once, and ten concurrent sends make one e-mail and one sent_emails row', async () => {
    const t = await createPaymentTenant(harness);
    const { email, event: paidEvent } = await paidCheckout(t, 'Grace');
    await mailOf(email, paidEvent.id);
    // The same receipt once more, as an event nobody has dispatched yet.
    const { id: eventId } = await recordEvent(harness.db, {
      accountId: paidEvent.accountId,
      mode: paidEvent.mode,
      storeId: paidEvent.storeId,
      customerId: paidEvent.customerId,
      eventType: 's_order_paid',
      properties: paidEvent.properties as Record<string, unknown>,
    });
    const deps = { db: harness.db, temporal: harness.temporal, taskQueue: harness.taskQueue };
    const mailer = createMailer(harness);
    const emailNow = { db: harness.db, logger: harness.logger, mailer };
    const sends = await Promise.allSettled([
      ...Array.from({ length: 10 }, () => dispatchEventsNow(deps, [eventId])),
      ...Array.from({ length: 10 }, () => dispatchEventsNow({ ...deps, emailNow }, [eventId])),
      ...Array.from({ length: 10 }, () =>
        sendEventEmail({ db: harness.db, logger: harness.logger, mailer }, { eventId, kind: 'order/paid' }),
      ),
    ]);
    const dispatches = sends.slice(0, 20);
    expect(dispatches.every((result) => result.status === 'fulfilled')).toBe(true);
    await mailOf(email, eventId);
    const row = await eventually(
      () => harness.db.sentEmail.findMany({ where: { eventId } }),
      (rows) => rows.length === 1 && rows[0]!.sentAt !== null,
    );
    // Let the workflow finish too: it must find the e-mail sent, not send it again.
    const handle = harness.temporal.workflow.getHandle(`eml_${eventId}_order_paid`);
    expect((await handle.result()).outcome).toMatch(/^(sent|already_sent)$/);
    expect((await mailbox(email)).filter((mail) => mail.meta.eventId === eventId)).toHaveLength(1);
    expect(await harness.db.sentEmail.count({ where: { eventId } })).toBe(1);
    expect(row[0]!.recipient).toBe(email);
  });

  it('a fresh claim without sentAt holds the send back; one older than the lease is taken over and sent', async () => {
    const { email, eventId, storeId } = await recordPaidOrder(harness, 'test');
    const event = await harness.db.event.findUniqueOrThrow({ where: { id: eventId } });
    const claim = { accountId: event.accountId, mode: event.mode, storeId, eventId, kind: 'order/paid' };
    await harness.db.sentEmail.create({ data: { id: 'eml_claimed', ...claim, recipient: email, subject: 'x' } });
    const send = () =>
      sendEventEmail(
        { db: harness.db, logger: harness.logger, mailer: createMailer(harness) },
        { eventId, kind: 'order/paid' },
      );
    await expect(send()).rejects.toBeInstanceOf(EmailClaimBusyError);
    await harness.db.sentEmail.update({
      where: { id: 'eml_claimed' },
      data: { claimedAt: new Date(Date.now() - claimLeaseMs - 60_000) },
    });
    expect(await send()).toMatchObject({ outcome: 'sent', sentEmailId: 'eml_claimed' });
    expect(await send()).toEqual({ outcome: 'already_sent', sentEmailId: 'eml_claimed' });
    expect((await mailbox(email)).map((mail) => mail.meta.eventId)).toEqual([eventId]);
  });

  it('sends from the store’s most recently changed active template of the kind; inactive and other kinds do not count', async () => {
    const { email, eventId, storeId } = await recordPaidOrder(harness, 'test', 'Choice Shop');
    const { accountId, mode } = await harness.db.event.findUniqueOrThrow({ where: { id: eventId } });
    const template = async (eventType: string, active: boolean, minutesAgo: number) => {
      const id = newId('emailTemplate');
      const subject = `${id}: {{ store.name }} {{ customer.email }} {{ order.total }} {{ order.lines[0].title }}`;
      await harness.db.emailTemplate.create({
        data: { id, accountId, mode, storeId, name: id, eventType, active, subject, bodyHtml: '<p>{{ order.id }}</p>' },
      });
      await harness.db.$executeRaw`
        UPDATE email_templates SET updated_at = (now() AT TIME ZONE 'UTC') - make_interval(mins => ${minutesAgo})
         WHERE id = ${id}`;
      return id;
    };
    await template('order/paid', true, 60);
    const chosen = await template('order/paid', true, 10);
    await template('order/paid', false, 1);
    await template('subscription/renewed', true, 1);
    const mailer = createMailer(harness);
    const sent = await sendEventEmail(
      { db: harness.db, logger: harness.logger, mailer },
      { eventId, kind: 'order/paid' },
    );
    expect(sent).toMatchObject({ outcome: 'sent', templateId: chosen });
    const mail = await mailOf(email, eventId);
    expect(mail.subject).toBe(`${chosen}: Choice Shop ${email} $12.00 Mug`);
    expect(mail.meta).toMatchObject({ templateId: chosen, storeId, kind: 'order/paid' });
  });

  it('live mode without SMTP: the send fails at once (no retry), nothing lands in the outbox, no claim is left', async () => {
    const { email, eventId } = await recordPaidOrder(harness, 'live');
    await dispatchEventsNow({ db: harness.db, temporal: harness.temporal, taskQueue: harness.taskQueue }, [eventId]);
    const handle = harness.temporal.workflow.getHandle(`eml_${eventId}_order_paid`);
    const failure = await handle.result().then(
      () => null,
      (error: Error & { cause?: { cause?: { nonRetryable?: boolean; message?: string } } }) => error.cause?.cause,
    );
    expect(failure).toMatchObject({ nonRetryable: true, message: expect.stringMatching(/needs SMTP_URL/) });
    expect(await mailbox(email)).toEqual([]);
    expect(await harness.db.sentEmail.count({ where: { eventId } })).toBe(0);
  });

  describe('subscriptions', () => {
    let merchant: Merchant;
    beforeAll(async () => {
      merchant = await createMerchant(harness.db);
    });

    /** A subscription one paid period in whose renewal on `pan` is due now. */
    async function renewingSubscription(pan: string) {
      const store = await createStore(harness.db, merchant, 'Beans');
      const plan = await createRecurringPrice(harness.db, merchant, store.id, 'Monthly', 2500);
      const email = `renewal-${randomUUID()}@example.com`;
      const customer = await createCustomer(harness.db, merchant, email);
      const card = await createCard(harness.db, harness.config, merchant, customer.id, pan);
      const state = renewalDueState({ merchant, storeId: store.id, plan, customerId: customer.id }, card.id);
      await runSubscription(harness, state);
      const eventOf = (eventType: string) =>
        until(
          async () =>
            (await harness.db.event.findFirst({ where: { eventType, customerId: customer.id } })) ?? undefined,
        );
      return { email, subscriptionId: state.subscriptionId, eventOf };
    }

    it('a failed renewal mails the notice with the pay-on-session link', async () => {
      const { email, subscriptionId, eventOf } = await renewingSubscription(decliningCard);
      const failed = await eventOf('s_subscription_payment_failed');
      const link = (failed.properties as Record<string, string>).payOnSessionLink!;
      expect(link).toEqual(expect.any(String));
      const mail = await mailOf(email, failed.id);
      expect(mail.subject).toBe('Your Beans payment did not go through');
      expect(mail.text).toContain(`We could not renew your subscription ${subscriptionId} ($25.00).`);
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`open your account with this link: ${link}</p>`);
    });

    it('a successful renewal mails the renewal receipt and no order receipt', async () => {
      const { email, subscriptionId, eventOf } = await renewingSubscription(goodCard);
      const renewed = await eventOf('s_subscription_renewed');
      const mail = await mailOf(email, renewed.id);
      expect(mail.subject).toBe('Your Beans subscription was renewed');
      expect(mail.text).toContain(`Your subscription ${subscriptionId} was renewed: $25.00 paid.`);
      // The charge's order/paid is dispatched (webhooks) but mails nothing: the renewal receipt covers it.
      const orderPaid = await eventOf('s_order_paid');
      await eventually(
        () => harness.db.event.findUniqueOrThrow({ where: { id: orderPaid.id } }),
        (event) => event.processedAt !== null,
      );
      expect(await harness.db.sentEmail.count({ where: { eventId: orderPaid.id } })).toBe(0);
      expect((await mailbox(email)).map((m) => m.meta.kind)).toEqual(['subscription/renewed']);
    });
  });
});
