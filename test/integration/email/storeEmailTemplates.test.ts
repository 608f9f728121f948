import { randomUUID } from 'node:crypto';
import { call } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';

describe('e-mails from the store’s templates (real Postgres; the sandbox outbox)', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);
  let storeId: string;
  const storeName = 'Tea & <Cakes>';
  beforeAll(async () => {
    storeId = (await ok(harness, 'POST', '/stores', merchant.token, { name: storeName, baseCurrency: 'EUR' })).id;
  });

  const preview = (body: Record<string, unknown>) =>
    call(harness, 'POST', `${api}/email-templates/preview`, { token: merchant.token, body });

  it('previews a draft with sample data: HTML outputs escaped, subject and text not, raw only when asked', async () => {
    const answer = await preview({
      storeId,
      eventType: 'order/paid',
      subject: 'Receipt {{ order.id }} from {{ store.name }}',
      bodyHtml: '<h1>{{ store.name }}</h1>{% assign tag = "<b>bold</b>" %}<p>{{ tag }}</p><p>{{ tag | raw }}</p>',
      bodyText: '{{ store.name }}: {{ order.total }}',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      eventType: 'order/paid',
      source: 'draft',
      subject: `Receipt ord_sample from ${storeName}`,
      html: '<h1>Tea &amp; &lt;Cakes&gt;</h1><p>&lt;b&gt;bold&lt;/b&gt;</p><p><b>bold</b></p>',
      text: `${storeName}: €39.98`,
    });
  });

  it('previews the engine default of each kind the engine sends, and a stored template by id', async () => {
    for (const eventType of [
      'order/paid',
      'subscription/renewed',
      'subscription/payment_failed',
      'portal/login_code',
    ]) {
      const answer = await preview({ storeId, eventType });
      expect(answer.status).toBe(200);
      expect(answer.body.source).toBe('default');
      expect(answer.body.html).toContain('Tea &amp; &lt;Cakes&gt;');
      expect(answer.body.subject).toContain(storeName);
    }
    const template = await ok(harness, 'POST', '/email-templates/create', merchant.token, {
      storeId,
      name: 'Renewal',
      eventType: 'subscription/renewed',
      subject: '{% if language == "de" %}Verlängert{% else %}Renewed{% endif %}: {{ subscription.id }}',
      bodyHtml: '<p>{{ subscription.amount }}</p>',
    });
    const german = await preview({ templateId: template.id, language: 'de' });
    expect(german.body).toMatchObject({ source: 'template', subject: 'Verlängert: sub_sample', html: '<p>€9.99</p>' });
    // No plain-text body: the text is the HTML's, without tags.
    expect(german.body.text).toBe('€9.99');
  });

  it('refuses a template that does not parse with 400 TEMPLATE_INVALID naming the part', async () => {
    const answer = await preview({ storeId, eventType: 'order/paid', subject: 'ok', bodyHtml: '{% if %}' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('TEMPLATE_INVALID');
    expect(answer.body.message).toMatch(/^bodyHtml is not a valid template/);
    const half = await preview({ storeId, eventType: 'order/paid', subject: 'only a subject' });
    expect(half.status).toBe(400);
  });

  it('mails the portal sign-in code from the store’s template, escaped, to the sandbox outbox', async () => {
    const email = `member-${randomUUID()}@example.com`;
    await ok(harness, 'POST', '/customers', merchant.token, { email, storeId, firstName: '<Ada>' });
    await ok(harness, 'POST', '/email-templates/create', merchant.token, {
      storeId,
      name: 'Sign-in',
      eventType: 'portal/login_code',
      subject: '{{ code }} is your {{ store.name }} code',
      bodyHtml: '<p>Hello {{ customer.name }}, your code is <b>{{ code }}</b>.</p>',
      bodyText: 'Hello {{ customer.name }}, your code is {{ code }}.',
    });
    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId, email } });
    expect(login.status).toBe(200);
    const message = await until(async () => {
      const { data } = (await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${email}`)).json()) as any;
      return data.find((mail: any) => mail.meta.loginId === login.body.loginId);
    });
    const code = message.meta.code as string;
    expect(message.subject).toBe(`${code} is your ${storeName} code`);
    expect(message.html).toBe(`<p>Hello &lt;Ada&gt;, your code is <b>${code}</b>.</p>`);
    expect(message.text).toBe(`Hello <Ada>, your code is ${code}.`);
    expect(message.meta.templateId).toMatch(/^et_/);
  });

  it('falls back to the engine’s wording when the store has no active template of that kind', async () => {
    const other = (await ok(harness, 'POST', '/stores', merchant.token, { name: 'Plain', baseCurrency: 'EUR' })).id;
    const email = `plain-${randomUUID()}@example.com`;
    await ok(harness, 'POST', '/customers', merchant.token, { email, storeId: other });
    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: other, email } });
    const message = await until(async () => {
      const { data } = (await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${email}`)).json()) as any;
      return data.find((mail: any) => mail.meta.loginId === login.body.loginId);
    });
    expect(message.subject).toBe('Your Plain sign-in code');
    expect(message.text).toBe(
      `Your sign-in code is ${message.meta.code}. It expires in ${harness.config.PORTAL_LOGIN_CODE_TTL_MINUTES} minutes.`,
    );
    expect(message.meta.templateId).toBeUndefined();
  });
});
