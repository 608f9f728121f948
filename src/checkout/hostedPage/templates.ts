/**
 * Liquid templates of the hosted page. In Liquid an empty string is true: absent values are null. The engine escapes every `{{ }}` output by default
 * (render.ts: `outputEscape: 'escape'`); only `body`, itself rendered by these templates, is `raw`.
 */
export const layoutTemplate = `<!doctype html>
<html lang="{{ language }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="/checkout/favicon.svg" type="image/svg+xml">
{% if refreshSeconds %}<meta http-equiv="refresh" content="{{ refreshSeconds }}">{% endif %}
<title>{{ title }}</title>
<style nonce="{{ nonce }}">{{ css | raw }}</style>
</head>
<body>
<main id="main">
{{ body | raw }}
</main>
{% if script %}<script nonce="{{ nonce }}">{{ script | raw }}</script>{% endif %}
</body>
</html>
`;

const summary = `<section class="panel" aria-labelledby="summary-heading">
<h2 id="summary-heading">Order summary</h2>
<table>
<thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
{% for line in lines %}<tr><td>{{ line.title }}<div class="muted">{{ line.unitAmount }} each</div></td><td>{{ line.quantity }}</td><td class="amount">{{ line.amount }}</td></tr>
{% endfor %}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Subtotal</th><td class="amount">{{ subtotal }}</td></tr>
{% for promotion in promotions %}<tr><th scope="row" colspan="2">{{ promotion.name }} ({{ promotion.code }})</th><td class="amount"></td></tr>
{% endfor %}{% if discountTotal %}<tr><th scope="row" colspan="2">Discount</th><td class="amount">−{{ discountTotal }}</td></tr>{% endif %}
<tr class="total"><th scope="row" colspan="2">Total</th><td class="amount">{{ total }}</td></tr>
</tfoot>
</table>
<form method="post" action="{{ promotionAction }}" novalidate>
<input type="hidden" name="t" value="{{ token }}"><input type="hidden" name="csrf" value="{{ csrf }}">
<label for="promotionCode">Promotion code</label>
<div class="promo"><input id="promotionCode" name="promotionCode" autocomplete="off" maxlength="64" aria-describedby="promotionCode-error" value="{{ promotionCode }}"{% if promotionError %} aria-invalid="true"{% endif %}>
<button type="submit" class="secondary">Apply</button></div>
<p class="error" id="promotionCode-error" role="status">{{ promotionError }}</p>
</form>
{% if promotionApplied %}<p class="notice" role="status">Promotion code {{ promotionApplied }} applied.</p>{% endif %}
</section>`;

export const checkoutTemplate = `<h1>{{ storeName }}</h1>
<div class="columns">
${summary}
<section class="panel" aria-labelledby="pay-heading">
<h2 id="pay-heading">Payment</h2>
<p>Receipt to <strong>{{ email }}</strong></p>
{% if alert %}<div class="alert" role="alert" id="form-alert">{{ alert }}</div>{% endif %}
<form method="post" action="{{ payAction }}" id="card-form" novalidate>
<input type="hidden" name="t" value="{{ token }}"><input type="hidden" name="csrf" value="{{ csrf }}"><input type="hidden" name="attempt" value="{{ attempt }}">
{% if charges %}
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" required aria-describedby="card-brand cardNumber-error"{% if errors.cardNumber %} aria-invalid="true"{% endif %}>
<p class="brand" id="card-brand" aria-live="polite">{{ brand }}</p>
<p class="error" id="cardNumber-error">{{ errors.cardNumber }}</p>
<div class="row">
<div><label for="expiry">Expiry (MM / YY)</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" maxlength="9" required aria-describedby="expiry-error" value="{{ values.expiry }}"{% if errors.expiry %} aria-invalid="true"{% endif %}>
<p class="error" id="expiry-error">{{ errors.expiry }}</p></div>
<div><label for="cvc">Security code (CVC)</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required aria-describedby="cvc-error"{% if errors.cvc %} aria-invalid="true"{% endif %}>
<p class="error" id="cvc-error">{{ errors.cvc }}</p></div>
</div>
<label for="cardholderName">Name on card</label>
<input id="cardholderName" name="cardholderName" autocomplete="cc-name" maxlength="100" required aria-describedby="cardholderName-error" value="{{ values.cardholderName }}"{% if errors.cardholderName %} aria-invalid="true"{% endif %}>
<p class="error" id="cardholderName-error">{{ errors.cardholderName }}</p>
<button type="submit" id="pay-button">Pay {{ total }}</button>
{% else %}
<p>Nothing to pay: your discounts cover the whole order.</p>
<button type="submit" id="pay-button">Place order</button>
{% endif %}
</form>
{% if cancelUrl %}<p><a href="{{ cancelUrl }}">Cancel and return to {{ storeName }}</a></p>{% endif %}
<p class="muted">Your card details go to the payment service of {{ storeName }} over an encrypted connection and never to the store itself.</p>
</section>
</div>`;

export const resultTemplate = `<h1>{{ storeName }}</h1>
<section class="panel" aria-labelledby="result-heading">
{% case kind %}
{% when 'paid' %}
<h2 id="result-heading">Thank you: your payment went through</h2>
<p class="notice" role="status">{{ total }} paid.{% if orderId %} Your order number is <strong id="order-number">{{ orderId }}</strong>.{% endif %}</p>
<p>A receipt goes to {{ email }}.</p>
{% if funnelUrl %}<p><a class="button" href="{{ funnelUrl }}" id="continue-link">Continue</a></p>
{% elsif successUrl %}<p><a class="button" href="{{ successUrl }}" id="continue-link">Continue to {{ storeName }}</a></p>{% endif %}
{% when 'declined' %}
<h2 id="result-heading">Your payment did not go through</h2>
<div class="alert" role="alert">{{ reason }}</div>
<p>Nothing was charged.</p>
<p><a class="button" href="{{ retryUrl }}" id="retry-link">Try another card</a></p>
{% if cancelUrl %}<p><a href="{{ cancelUrl }}">Cancel and return to {{ storeName }}</a></p>{% endif %}
{% when 'action' %}
<h2 id="result-heading">Confirm the payment with your bank</h2>
<p>Your bank asks you to confirm this payment of {{ total }}.</p>
<p><a class="button" href="{{ actionUrl }}" id="continue-link" data-auto="1">Continue to your bank</a></p>
{% else %}
<h2 id="result-heading">Your payment is being processed</h2>
<p role="status">This page refreshes by itself. Please do not pay again.</p>
<p><a href="{{ refreshUrl }}">Refresh now</a></p>
{% endcase %}
</section>`;

export const noticeTemplate = `<h1>{{ heading }}</h1>
<section class="panel"><p>{{ message }}</p>
{% if linkUrl %}<p><a href="{{ linkUrl }}">{{ linkText }}</a></p>{% endif %}</section>`;
