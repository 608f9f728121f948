// The first charge of a subscription sends the renewal receipt too (its event is `subscription/renewed`).
const startedOrRenewed = '{% if subscription.reason == "first_charge" %}has started{% else %}was renewed{% endif %}';

/**
 * The e-mails the engine sends, by the event type a store's template is registered for
 * (`eventType` of `/email-templates`), with the engine's own wording when the store has no active
 * template of that type. Liquid: `{{ }}` outputs are escaped in the HTML body (templates.ts).
 */
export const emailKinds = {
  'order/paid': {
    description: 'order receipt after a successful payment',
    subject: 'Your {{ store.name }} receipt for order {{ order.id }}',
    bodyHtml:
      '<p>Thank you for your order.</p><p>Order <strong>{{ order.id }}</strong>: {{ order.total }} paid.</p>' +
      '<ul>{% for line in order.lines %}<li>{{ line.quantity }} × {{ line.title }}: {{ line.amount }}</li>{% endfor %}</ul>' +
      '<p>{{ store.name }}</p>',
    bodyText:
      'Thank you for your order.\n\nOrder {{ order.id }}: {{ order.total }} paid.\n' +
      '{% for line in order.lines %}- {{ line.quantity }} x {{ line.title }}: {{ line.amount }}\n{% endfor %}\n{{ store.name }}',
  },
  'subscription/renewed': {
    description: 'subscription renewal receipt',
    subject: `Your {{ store.name }} subscription ${startedOrRenewed}`,
    bodyHtml:
      `<p>Your subscription {{ subscription.id }} ${startedOrRenewed}: {{ subscription.amount }} paid.</p>` +
      '<p>Next renewal: {{ subscription.nextBillingDate }}.</p><p>{{ store.name }}</p>',
    bodyText:
      `Your subscription {{ subscription.id }} ${startedOrRenewed}: {{ subscription.amount }} paid.\n` +
      'Next renewal: {{ subscription.nextBillingDate }}.\n\n{{ store.name }}',
  },
  'subscription/payment_failed': {
    description: 'failed renewal and dunning notice',
    subject: 'Your {{ store.name }} payment did not go through',
    bodyHtml:
      '<p>We could not renew your subscription {{ subscription.id }} ({{ subscription.amount }}).</p>' +
      '{% if payOnSessionLink %}<p>To pay it now, open your account with this link: {{ payOnSessionLink }}</p>{% endif %}' +
      '<p>{{ store.name }}</p>',
    bodyText:
      'We could not renew your subscription {{ subscription.id }} ({{ subscription.amount }}).\n' +
      '{% if payOnSessionLink %}To pay it now, open your account with this link: {{ payOnSessionLink }}\n{% endif %}' +
      '\n{{ store.name }}',
  },
  'portal/login_code': {
    description: 'customer portal sign-in code',
    subject: 'Your {{ store.name }} sign-in code',
    bodyHtml:
      '<p>Your sign-in code is <strong>{{ code }}</strong>. It expires in {{ expiresInMinutes }} minutes.</p><p>{{ store.name }}</p>',
    bodyText: 'Your sign-in code is {{ code }}. It expires in {{ expiresInMinutes }} minutes.',
  },
} as const;

export type EmailKind = keyof typeof emailKinds;

export const emailKindNames = Object.keys(emailKinds) as EmailKind[];

export function isEmailKind(eventType: string): eventType is EmailKind {
  return Object.hasOwn(emailKinds, eventType);
}

/** What a preview fills a template with: the shape the real e-mails of each kind get. */
export function sampleData(kind: EmailKind, store: { name: string }, language: string): Record<string, unknown> {
  const common = {
    store: { name: store.name },
    customer: { email: 'shopper@example.com', name: 'Ada Lovelace' },
    language,
  };
  switch (kind) {
    case 'order/paid':
      return {
        ...common,
        order: {
          id: 'ord_sample',
          total: '€39.98',
          lines: [{ title: 'T-shirt', quantity: 2, amount: '€39.98' }],
        },
      };
    case 'subscription/renewed':
    case 'subscription/payment_failed':
      return {
        ...common,
        subscription: {
          id: 'sub_sample',
          amount: '€9.99',
          nextBillingDate: '2027-01-01',
          nextRetryDate: '2026-12-04',
          reason: 'renewal',
        },
        payOnSessionLink: kind === 'subscription/payment_failed' ? 'eyJzYW1wbGUiOnRydWV9.c2lnbmF0dXJl' : null,
      };
    case 'portal/login_code':
      return { ...common, code: '123456', expiresInMinutes: 15 };
  }
}
