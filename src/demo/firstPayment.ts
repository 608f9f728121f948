import { randomUUID } from 'node:crypto';

/** What `npm run demo` made, and what it prints. */
export interface DemoResult {
  apiUrl: string;
  crmKey: string;
  storeId: string;
  checkoutSessionId: string;
  hostedPageUrl: string;
  /** The webhook endpoint (we_) the demo made, and the sandbox inbox it delivers to. */
  webhookEndpointId: string;
  webhookInboxUrl: string;
  lines: string[];
}

export interface DemoOptions {
  /** The running engine's API, e.g. http://127.0.0.1:3000. */
  apiUrl: string;
  /** A test-mode partner key (the CLI makes one with `admin create-partner`). */
  partnerKey: string;
  /** Where the Temporal Web UI is, for the printed pointer. */
  temporalUiUrl: string;
  /** The running sandbox (npm start prints it): its webhook inbox receives the demo store's events. */
  sandboxUrl: string;
}

async function callApi<T = { id: string }>(
  apiUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer as T;
}

/**
 * A first payment, through the public API only, as a merchant would set it up: a test merchant and
 * its CRM key (partner API), a sandbox processor, a payment flow, a store, two products and a
 * checkout session, and a webhook endpoint on the sandbox's inbox; then the hosted page's link, the
 * test cards, where to watch the webhooks and the receipt, and the same steps as curl.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const { apiUrl, partnerKey } = options;
  const suffix = randomUUID().slice(0, 8);
  const merchant = await callApi(apiUrl, partnerKey, 'POST', '/api/public/v1/partner/merchants', {
    name: `Demo merchant ${suffix}`,
    plan: 'premium',
  });
  const key = await callApi<{ token: string }>(
    apiUrl,
    partnerKey,
    'POST',
    `/api/public/v1/partner/merchants/${merchant.id}/keys`,
    {
      name: 'demo key',
      mode: 'test',
    },
  );
  const crm = key.token;
  const v1 = '/api/public/v1';
  const processor = await callApi(apiUrl, crm, 'POST', `${v1}/processors`, {
    name: 'Sandbox acquirer',
    type: 'sandbox',
    credentials: { merchantId: `demo_${suffix}` },
    supportedCurrencies: ['EUR'],
    baseCurrency: 'EUR',
  });
  await callApi(apiUrl, crm, 'POST', `${v1}/processors/update`, {
    processorId: processor.id,
    updatedData: { enable3DS: true },
  });
  const flow = await callApi(apiUrl, crm, 'POST', `${v1}/payment-flows`, {
    name: 'Demo flow',
    strategy: 'cascade',
    threeDsEnabled: true,
    stickyProcessorEnabled: false,
    pickProcessorStrategy: 'ordered',
    fallbackMode: false,
    maxFallbackRetries: 0,
    processorConfigs: [{ processorId: processor.id, weight: 100 }],
    fallbackProcessorConfigs: [],
  });
  const store = await callApi(apiUrl, crm, 'POST', `${v1}/stores`, {
    name: 'Demo Coffee Roasters',
    baseCurrency: 'EUR',
    presentmentCurrencies: ['EUR'],
    defaultPaymentFlowId: flow.id,
  });
  // A webhook endpoint on the sandbox's inbox: the store's events are delivered (signed) where they can be watched.
  const webhookInboxUrl = `${options.sandboxUrl.replace(/\/+$/, '')}/inbox/demo_${suffix}`;
  const webhook = await callApi(apiUrl, crm, 'POST', `${v1}/webhooks`, {
    storeId: store.id,
    url: webhookInboxUrl,
    eventTypes: ['payment/succeeded', 'payment/failed', 'order/paid', 'checkout_session/paid'],
    description: 'npm run demo: the sandbox webhook inbox',
  });
  const product = (name: string, unitAmount: number) =>
    callApi<{ variants: { prices: { id: string }[] }[] }>(apiUrl, crm, 'POST', `${v1}/products`, {
      storeId: store.id,
      name,
      variants: [{ name: 'Default', prices: [{ unitAmount, currency: 'EUR', type: 'one_time' }] }],
    });
  const priceOf = (created: { variants: { prices: { id: string }[] }[] }) => created.variants[0]!.prices[0]!.id;
  const beans = priceOf(await product('Espresso beans, 1 kg', 2490));
  const mug = priceOf(await product('Enamel mug', 1200));
  const session = await callApi<{ id: string; url: string; expiresAt: string }>(
    apiUrl,
    crm,
    'POST',
    `${v1}/checkout-sessions`,
    {
      storeId: store.id,
      customer: { email: `shopper-${suffix}@example.com`, firstName: 'Ada', lastName: 'Lovelace' },
      lineItems: [
        { priceId: beans, quantity: 1, titleTrans: { de: 'Espressobohnen, 1 kg' } },
        { priceId: mug, quantity: 2, titleTrans: { de: 'Emaillebecher' } },
      ],
      successUrl: 'https://example.com/thanks',
      cancelUrl: 'https://example.com/cart',
    },
  );
  const lines = [
    '',
    `Open the hosted payment page (valid until ${session.expiresAt}):`,
    `  ${session.url}`,
    '',
    'Test cards (any name, any future expiry such as 12 / 30, CVC 123):',
    '  4242 4242 4242 4242   approved',
    '  4000 0000 0000 0002   declined: then "Try another card"',
    '  4000 0000 0000 3220   3-D Secure challenge: press "Complete authentication"',
    '',
    `Watch the payment workflow in the Temporal UI: ${options.temporalUiUrl} (search StoreId = "${store.id}")`,
    `Watch the webhooks of this store arrive (open in a browser, or curl for JSON): ${webhookInboxUrl}`,
    `The e-mail outbox of test mode (the receipt): ${options.sandboxUrl.replace(/\/+$/, '')}/outbox/messages`,
    '',
    'The same steps with curl (the key below is a test-mode CRM key of the demo merchant):',
    `  export KEY=${crm}`,
    `  curl -s ${apiUrl}${v1}/checkout-sessions/${session.id} -H "authorization: Bearer $KEY"`,
    `  curl -s ${apiUrl}${v1}/checkout-sessions -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\`,
    `    -d '{"storeId":"${store.id}","customer":{"email":"someone@example.com"},"lineItems":[{"priceId":"${beans}","quantity":1}]}'`,
    `  # then open the "url" of that answer, or pay with your own card token through POST ${v1}/checkout/pay-v2`,
    `  curl -s ${apiUrl}${v1}/payments/list -H "authorization: Bearer $KEY" -H 'content-type: application/json' -d '{}'`,
  ];
  return {
    apiUrl,
    crmKey: crm,
    storeId: store.id,
    checkoutSessionId: session.id,
    hostedPageUrl: session.url,
    webhookEndpointId: webhook.id,
    webhookInboxUrl,
    lines,
  };
}
