import express from 'express';
import { memoryLimitDefaults } from '../../src/config';

/** One request a webhook sender made to an inbox. */
export interface InboxDelivery {
  id: string;
  inboxId: string;
  receivedAt: string;
  /** The request's headers (lower-case names), the webhook's signature, event id and type among them. */
  headers: Record<string, string>;
  /** The body exactly as received (a signature is checked against these bytes). */
  body: string;
  /** The body parsed, when it is JSON. */
  json: unknown;
}

const inboxIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

function inboxPage(inboxId: string, deliveries: InboxDelivery[]): string {
  const items = deliveries.map((delivery) => {
    const type = delivery.headers['x-webhook-event-type'] ?? '(no event type)';
    const shown = delivery.json === null ? delivery.body : JSON.stringify(delivery.json, null, 2);
    return `<li><h2>${escapeHtml(type)}</h2><p>${escapeHtml(delivery.receivedAt)} · ${escapeHtml(delivery.id)} · signature <code>${escapeHtml(delivery.headers['x-webhook-signature'] ?? 'none')}</code></p><pre>${escapeHtml(shown)}</pre></li>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5"><title>Webhook inbox ${escapeHtml(inboxId)}</title></head>
<body><main><h1>Webhook inbox ${escapeHtml(inboxId)}</h1>
<p>${deliveries.length} deliveries, newest first. This page refreshes every 5 seconds; <code>GET</code> with <code>Accept: application/json</code> lists them as JSON.</p>
<ol reversed>${items.join('\n')}</ol></main></body></html>`;
}

/**
 * The sandbox's webhook receiver: `POST /inbox/{id}` records a delivery (any body, answered 200),
 * `GET /inbox/{id}` lists them newest first (JSON, or a page for a browser), `DELETE` empties it.
 * Test mode only, like everything in the sandbox, and in memory: the newest `maxDeliveries` of all
 * inboxes together (SANDBOX_INBOX_MAX_DELIVERIES), bodies up to 64 kB: a simulation, not a store.
 * Mounted before the sandbox's JSON parser: the body is kept as sent.
 */
export function createInboxRouter(
  maxDeliveries: number = memoryLimitDefaults.SANDBOX_INBOX_MAX_DELIVERIES,
): express.Router {
  const router = express.Router();
  const deliveries: InboxDelivery[] = [];
  let counter = 0;

  router.param('inboxId', (_req, res, next, inboxId: string) => {
    if (inboxIdPattern.test(inboxId)) return next();
    res.status(400).json({ message: 'an inbox id is 1-64 letters, digits, _ or -', code: 'BAD_REQUEST' });
  });

  router.post('/:inboxId', express.text({ type: () => true, limit: '64kb' }), (req, res) => {
    const inboxId = req.params.inboxId!;
    const body = typeof req.body === 'string' ? req.body : '';
    let json: unknown = null;
    try {
      json = body ? JSON.parse(body) : null;
    } catch {
      json = null;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
      ),
    );
    const delivery: InboxDelivery = {
      id: `dlv_${++counter}`,
      inboxId,
      receivedAt: new Date().toISOString(),
      headers,
      body,
      json,
    };
    deliveries.push(delivery);
    if (deliveries.length > maxDeliveries) deliveries.splice(0, deliveries.length - maxDeliveries);
    res.status(200).json({ received: true, id: delivery.id });
  });

  router.get('/:inboxId', (req, res) => {
    const inboxId = req.params.inboxId!;
    const found = deliveries.filter((delivery) => delivery.inboxId === inboxId).reverse();
    if (req.accepts(['json', 'html']) === 'html') {
      res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      res.type('html').send(inboxPage(inboxId, found));
      return;
    }
    res.json({ data: found });
  });

  router.delete('/:inboxId', (req, res) => {
    const kept = deliveries.filter((delivery) => delivery.inboxId !== req.params.inboxId);
    deliveries.splice(0, deliveries.length, ...kept);
    res.json({ ok: true });
  });

  return router;
}
