import type { Db } from '../db/prisma';
import type { EventEmailInput } from './eventEmails';
import type { TemplateSource } from './templates';
import { rawRows } from '../db/rawRows';

interface CustomerRow {
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** A claim older than this whose mail is not marked sent belongs to a sender that died: it may be taken over. */
export const claimLeaseMs = 120_000;

/**
 * The (event, kind) row of `sent_emails` after the read: `claimed` by this read (a new row, or one
 * whose claim lapsed unsent), `sent` already, or `busy` (held by a live claim of another attempt,
 * or taken by one that committed after this statement's snapshot). Null: SQL sees nothing to send
 * (no such event, a draft, no customer e-mail) and no sent row.
 */
export type EventEmailClaim = { state: 'claimed'; id: string } | { state: 'sent'; id: string } | { state: 'busy' };

/** What an event's e-mail is made from, fetched in ONE statement (see readEventEmailRows). */
export interface EventEmailRows {
  event: {
    id: string;
    accountId: string;
    mode: 'test' | 'live';
    eventType: string;
    properties: Record<string, unknown>;
    draft: boolean;
  } | null;
  /** What the read did to the (event, kind) row of `sent_emails`: see `EventEmailClaim`. */
  claim: EventEmailClaim | null;
  /** The paid order (order receipt only), its items and its checkout session's lines, in position order. */
  order: {
    id: string;
    totalAmount: number;
    subtotal: number;
    discountTotal: number;
    currency: string;
    locale: string | null;
    items: { productName: string; quantity: number; totalAmount: number }[];
    sessionLines: { productName: string; titleTrans: unknown }[];
  } | null;
  /** The subscription (renewal receipt and notice only). */
  subscription: {
    id: string;
    price: number;
    currency: string;
    /** ISO 8601 in UTC, as the engine stores timestamps. */
    nextBillingAt: string | null;
  } | null;
  /** The `locale` of the subscription's customer's latest checkout session that has one. */
  lastLocale: string | null;
  store: { id: string; name: string } | null;
  customer: CustomerRow | null;
  /** The store's active template of the e-mail's kind, the most recently changed when several. */
  template: (TemplateSource & { id: string }) | null;
}

/**
 * The event, the order (with items, checkout session locale and lines) or subscription it names,
 * their store and customer, the customer's last checkout locale (subscriptions) and the store's
 * template of the kind, in one round trip: each was its own query (nine for an order receipt).
 * Every row the event names is read in the event's account and mode; a missing one reads as null.
 *
 * The same statement claims the e-mail's `sent_emails` row (under `claimId` when new) when there
 * is something to send, so the sender needs no statement of its own before the mail leaves. The
 * subject is rendered in Node afterwards: the claim stores an empty one, which the sent mark
 * replaces. A caller that then sends nothing must give a `claimed` row back.
 */
export async function readEventEmailRowsAndClaim(
  db: Db,
  input: EventEmailInput,
  claimId: string,
): Promise<EventEmailRows> {
  const [row] = await rawRows<EventEmailRows>(db)`
    WITH ev AS (
      SELECT id, account_id, mode, event_type, properties, draft FROM events WHERE id = ${input.eventId}
    ), ord AS (
      SELECT o.* FROM orders o
        JOIN ev ON o.id = ev.properties->>'orderId' AND o.account_id = ev.account_id AND o.mode = ev.mode
       WHERE ${input.kind}::text = 'order/paid'
    ), sub AS (
      SELECT s.* FROM subscriptions s
        JOIN ev ON s.id = ev.properties->>'subscriptionId' AND s.account_id = ev.account_id AND s.mode = ev.mode
       WHERE ${input.kind}::text <> 'order/paid'
    ), owner AS (
      SELECT account_id, mode, store_id, customer_id FROM ord
      UNION ALL
      SELECT account_id, mode, store_id, customer_id FROM sub
    ), existing AS (
      SELECT id, sent_at IS NOT NULL AS sent FROM sent_emails WHERE event_id = ${input.eventId} AND kind = ${input.kind}::text
    ), sendable AS (
      SELECT owner.account_id, owner.mode, owner.store_id, c.email
        FROM ev CROSS JOIN owner
        JOIN stores st ON st.id = owner.store_id AND st.account_id = owner.account_id AND st.mode = owner.mode
        JOIN customers c ON c.id = owner.customer_id AND c.account_id = owner.account_id AND c.mode = owner.mode
       WHERE NOT ev.draft AND c.email <> ''
       LIMIT 1
    ), claim AS (
      -- The lease rule of the claim: a new row, or an unsent one whose claim is older than the lease,
      -- on the database's clock in UTC so that the claims of several workers compare on one clock.
      -- A row this statement's snapshot shows sent is left alone (no write, no row lock).
      INSERT INTO sent_emails (id, account_id, mode, store_id, event_id, kind, recipient, subject, claimed_at)
      SELECT ${claimId}, account_id, mode, store_id, ${input.eventId}, ${input.kind}::text, email, '',
             (now() AT TIME ZONE 'UTC')
        FROM sendable WHERE NOT EXISTS (SELECT 1 FROM existing WHERE sent)
      ON CONFLICT (event_id, kind) DO UPDATE
         SET claimed_at = EXCLUDED.claimed_at, recipient = EXCLUDED.recipient, subject = EXCLUDED.subject
       WHERE sent_emails.sent_at IS NULL
         AND sent_emails.claimed_at < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${claimLeaseMs / 1000})
      RETURNING id
    )
    SELECT
      -- Not claimed and not sent in this snapshot is busy: the refusing row may be a live claim, or
      -- one committed after the snapshot and so invisible here. Busy is retried later, never sent.
      (SELECT CASE
                WHEN EXISTS (SELECT 1 FROM claim) THEN jsonb_build_object('state', 'claimed', 'id', (SELECT id FROM claim))
                WHEN EXISTS (SELECT 1 FROM existing WHERE sent)
                  THEN jsonb_build_object('state', 'sent', 'id', (SELECT id FROM existing))
                WHEN EXISTS (SELECT 1 FROM sendable) THEN jsonb_build_object('state', 'busy')
              END) AS claim,
      (SELECT jsonb_build_object('id', id, 'accountId', account_id, 'mode', mode, 'eventType', event_type,
              'properties', properties, 'draft', draft)
         FROM ev) AS event,
      (SELECT jsonb_build_object('id', o.id, 'totalAmount', o.total_amount,
              'subtotal', o.subtotal, 'discountTotal', o.discount_total, 'currency', o.currency, 'locale', cs.locale,
              'items', (SELECT coalesce(jsonb_agg(jsonb_build_object('productName', i.product_name,
                               'quantity', i.quantity, 'totalAmount', i.total_amount) ORDER BY i.position, i.id),
                               '[]'::jsonb)
                          FROM order_items i WHERE i.order_id = o.id),
              'sessionLines', (SELECT coalesce(jsonb_agg(jsonb_build_object('productName', l.product_name,
                                      'titleTrans', l.title_trans) ORDER BY l.position, l.id), '[]'::jsonb)
                                 FROM checkout_session_line_items l WHERE l.checkout_session_id = cs.id))
         FROM ord o
         LEFT JOIN checkout_sessions cs
           ON cs.id = o.checkout_session_id AND cs.account_id = o.account_id AND cs.mode = o.mode) AS "order",
      (SELECT jsonb_build_object('id', id, 'price', price, 'currency', currency,
              'nextBillingAt', to_char(next_billing_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         FROM sub) AS subscription,
      (SELECT cs.locale
         FROM sub JOIN checkout_sessions cs
           ON cs.customer_id = sub.customer_id AND cs.account_id = sub.account_id AND cs.mode = sub.mode
        WHERE cs.locale IS NOT NULL
        ORDER BY cs.created_at DESC, cs.id DESC LIMIT 1) AS "lastLocale",
      (SELECT jsonb_build_object('id', st.id, 'name', st.name)
         FROM owner JOIN stores st
           ON st.id = owner.store_id AND st.account_id = owner.account_id AND st.mode = owner.mode) AS store,
      (SELECT jsonb_build_object('email', c.email, 'firstName', c.first_name, 'lastName', c.last_name)
         FROM owner JOIN customers c
           ON c.id = owner.customer_id AND c.account_id = owner.account_id AND c.mode = owner.mode) AS customer,
      (SELECT jsonb_build_object('id', t.id, 'subject', t.subject, 'bodyHtml', t.body_html, 'bodyText', t.body_text)
         FROM owner JOIN email_templates t
           ON t.store_id = owner.store_id AND t.account_id = owner.account_id AND t.mode = owner.mode
        WHERE t.event_type = ${input.kind}::text AND t.active
        ORDER BY t.updated_at DESC, t.id DESC LIMIT 1) AS template`;
  if (!row) throw new Error(`reading the e-mail of ${input.eventId} returned no row`);
  return row;
}
