/**
 * Liquid templates of the funnel pages that follow a paid hosted checkout: an upsell or downsell
 * offer answered in one click, and the final page. Escaped by default as every hosted page (render.ts).
 */
export const offerTemplate = `<h1>{{ storeName }}</h1>
<section class="panel" aria-labelledby="offer-heading">
{% if notice %}<p class="notice" role="status">{{ notice }}</p>{% endif %}
<h2 id="offer-heading">{% if offerType == 'downsell' %}How about this instead?{% else %}One more thing for your order{% endif %}</h2>
<p class="offer-title" id="offer-title">{{ offerTitle }}</p>
<p class="offer-amount">Only <strong id="offer-amount">{{ amount }}</strong></p>
<p>One click adds it: it is charged to the card you just paid with, and nothing else is charged.</p>
<form method="post" action="{{ answerAction }}" class="offer-form">
<input type="hidden" name="t" value="{{ token }}"><input type="hidden" name="csrf" value="{{ csrf }}"><input type="hidden" name="step" value="{{ stepId }}"><input type="hidden" name="answer" value="accept">
<button type="submit" id="accept-button">Yes, add it for {{ amount }}</button>
</form>
<form method="post" action="{{ answerAction }}" class="offer-form">
<input type="hidden" name="t" value="{{ token }}"><input type="hidden" name="csrf" value="{{ csrf }}"><input type="hidden" name="step" value="{{ stepId }}"><input type="hidden" name="answer" value="decline">
<button type="submit" class="secondary" id="decline-button">No, thanks</button>
</form>
</section>`;

export const funnelEndTemplate = `<h1>{{ storeName }}</h1>
<section class="panel" aria-labelledby="end-heading">
{% if kind == 'processing' %}
<h2 id="end-heading">Adding the offer to your order</h2>
<p role="status">This page refreshes by itself. Please do not click again: you are charged once.</p>
<p><a href="{{ refreshUrl }}">Refresh now</a></p>
{% else %}
<h2 id="end-heading">Thank you: your order is complete</h2>
{% if notice %}<p class="notice" role="status">{{ notice }}</p>{% endif %}
{% if bought.size > 0 %}<h3>Added to your order</h3>
<ul id="bought">{% for item in bought %}<li>{{ item.title }}: {{ item.amount }}</li>{% endfor %}</ul>{% endif %}
<p>A receipt goes to {{ email }}.</p>
{% if successUrl %}<p><a class="button" href="{{ successUrl }}" id="continue-link">Continue to {{ storeName }}</a></p>{% endif %}
{% endif %}
</section>`;
