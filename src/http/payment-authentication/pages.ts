import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { liquid } from '../../checkout/hostedPage/render';
import type { ReturnedPayment } from '../../payments/paymentResult';
import type { AuthenticationAction } from '../../processors/types';

/**
 * The engine's own pages of a step-up, for a browser without a caller's returnUrl: the result, and
 * the auto-submitting form for a processor whose authentication page takes a POST. Strict CSP:
 * inline script and style only with this answer's nonce, never framed.
 */
function send(res: Response, html: string, nonce: string, formAction?: string): void {
  res.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      `form-action ${formAction ?? "'none'"}`,
      "frame-ancestors 'none'",
    ].join('; '),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
  res.status(200).type('html').send(html);
}

const layout = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style nonce="{{ nonce }}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style>
</head><body><main>{{ body | raw }}</main></body></html>`;

const resultBody = `<h1>{{ title }}</h1>
{% if payment %}<p>Payment <code>{{ payment.id }}</code>: <strong>{{ payment.status }}</strong>{% if payment.declineMessage %} ({{ payment.declineMessage }}){% endif %}.</p>{% endif %}
{% if retryUrl %}<p><a href="{{ retryUrl }}">Go back to your bank's page</a></p>{% endif %}`;

const formBody = `<h1>Redirecting to your bank…</h1>
<form id="go" method="post" action="{{ url }}">{% for field in fields %}<input type="hidden" name="{{ field[0] }}" value="{{ field[1] }}">{% endfor %}
<noscript><button type="submit">Continue</button></noscript></form>
<script nonce="{{ nonce }}">document.getElementById('go').submit();</script>`;

function render(res: Response, title: string, bodySource: string, data: Record<string, unknown>, formAction?: string) {
  const nonce = randomBytes(16).toString('base64');
  const body = liquid.parseAndRenderSync(bodySource, { ...data, title, nonce });
  send(res, liquid.parseAndRenderSync(layout, { title, nonce, body }), nonce, formAction);
}

const titles: Record<string, string> = {
  succeeded: 'Payment complete',
  authorized: 'Payment authorized',
  failed: 'Payment not completed',
  requires_action: 'Authentication not finished',
};

export function sendResultPage(res: Response, payment: ReturnedPayment | null, retryUrl: string | null): void {
  const title = payment ? (titles[payment.status] ?? 'Payment processing') : 'Payment not found';
  render(res, title, resultBody, { payment, retryUrl });
}

export function sendAuthenticationForm(res: Response, action: AuthenticationAction): void {
  render(
    res,
    'Redirecting to your bank',
    formBody,
    { url: action.url, fields: Object.entries(action.data ?? {}) },
    new URL(action.url).origin,
  );
}
