import { maxAmount } from '../../domain/checkoutTotals';
import { newId, randomBase62 } from '../../domain/ids';
import { Prisma, type Db } from '../../db/prisma';
import { emailKindOfEvent } from '../../email/eventEmails';
import type { RecordedEvent } from '../../events/dispatch';
import { noteEventShape } from '../../events/recordEvent';
import { webhookTypeOf } from '../../webhooks/catalogue';
import type { FinalizeInput, OrderSummary } from '../workflowTypes';
import { rawRows } from '../../db/rawRows';

/** What the one statement recorded; null when it wrote nothing and the transaction path must decide. */
export interface PaidCheckoutRecorded {
  order: OrderSummary;
  /** Events with a subscribed endpoint or a customer e-mail, in order: dispatch delivers them. */
  eventIds: string[];
  /** The same events as written, with the endpoints subscribed to each: dispatch needs to read nothing. */
  recordedEvents: RecordedEvent[];
  paymentCreatedAt: Date;
}

const paidEventTypes = ['s_checkout_session_paid', 's_order_paid', 's_payment_succeeded'] as const;

/** Only the plain approved checkout payment goes this way; reviews, disputes and failures keep the transaction. */
export function fitsPaidCheckoutStatement(input: FinalizeInput): boolean {
  return input.status !== 'failed' && !input.review && !input.dispute && !input.blockedByRuleId;
}

/**
 * The end of an approved checkout payment in ONE statement (atomic without BEGIN/COMMIT): the
 * payment row locked while open, the session flipped to paid, its order and items, the payment
 * row, and the three events (processed at once when no enabled endpoint subscribes and they send
 * no e-mail), as the transaction of transaction.ts writes them.
 *
 * It writes nothing, and answers null, unless all of it can be written as that transaction would:
 * the payment is open and belongs to a checkout session; the session is open, unchanged since the
 * statement's snapshot (its `xmin`: an order bump committed under us makes the flip skip the row,
 * so the items read can never miss a line), has at least one line, and has amounts the order can
 * hold. The transaction path then decides (a repeat, a session paid by another, a bad amount).
 * Relies on Postgres running data-modifying CTEs all or nothing in one statement, on `FOR UPDATE`
 * of the payment row serializing two finalizes of one payment (the second sees it closed), and
 * on the UPDATE rechecking `status` and `xmin` on the newest row version.
 */
export async function recordPaidCheckout(db: Db, input: FinalizeInput): Promise<PaidCheckoutRecorded | null> {
  const now = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
  const orderId = newId('order');
  // Items are `oli_` + one random stem + their 1-based place: unique, and one random draw per order.
  const itemIdStem = `oli_${randomBase62(20)}`;
  const [sessionPaidId, orderPaidId, paymentSucceededId] = paidEventTypes.map(() => newId('event'));
  const [sessionPaidHook, orderPaidHook, paymentSucceededHook] = paidEventTypes.map(
    (eventType) => webhookTypeOf(eventType) ?? null,
  );
  const captured = input.captured;
  // Which of the three send a customer e-mail (the order receipt): they wait for dispatch like subscribed ones.
  const [sessionPaidEmails, orderPaidEmails, paymentSucceededEmails] = paidEventTypes.map(
    (eventType) => emailKindOfEvent({ eventType, properties: { paymentId: input.paymentId } }) !== null,
  );
  const [row] = await rawRows<{
    orderId: string | null;
    totalAmount: number | null;
    currency: string | null;
    paymentCreatedAt: Date | null;
    scope: { accountId: string; mode: 'test' | 'live'; storeId: string; customerId: string } | null;
    events: { id: string; eventType: string; properties: unknown; dispatch: boolean; endpointIds: string[] }[] | null;
  }>(db)`
    WITH pay AS (
      SELECT id, account_id, mode, store_id, customer_id, checkout_session_id, amount, currency, source, created_at
        FROM payments
       WHERE id = ${input.paymentId} AND status IN ('processing', 'requires_action') AND checkout_session_id IS NOT NULL
         FOR UPDATE
    ), lines AS (
      SELECT price_id, product_id, variant_id, product_name, quantity, unit_amount,
             row_number() OVER (ORDER BY position, id) AS place
        FROM checkout_session_line_items
       WHERE checkout_session_id = (SELECT checkout_session_id FROM pay)
    ), flip AS (
      UPDATE checkout_sessions s
         SET status = 'paid', payment_id = ${input.paymentId}, paid_at = ${now}, updated_at = ${now}
       WHERE s.id = (SELECT checkout_session_id FROM pay) AND s.status = 'open'
         AND s.xmin = (SELECT xmin FROM checkout_sessions WHERE id = (SELECT checkout_session_id FROM pay))
         AND s.discount_total >= 0 AND s.discount_total <= s.subtotal AND s.subtotal <= ${maxAmount}::bigint
         AND EXISTS (SELECT 1 FROM lines)
         AND NOT EXISTS (SELECT 1 FROM lines
                          WHERE quantity < 1 OR unit_amount < 0 OR unit_amount::bigint * quantity > ${maxAmount}::bigint)
      RETURNING s.id, s.account_id, s.mode, s.store_id, s.customer_id, s.currency, s.subtotal, s.discount_total
    ), ord AS (
      INSERT INTO orders (id, account_id, mode, store_id, customer_id, checkout_session_id, status, subtotal,
                          discount_total, total_amount, currency, payment_id, source, created_at, updated_at)
      SELECT ${orderId}, account_id, mode, store_id, customer_id, id, 'paid', subtotal, discount_total,
             subtotal - discount_total, currency, ${input.paymentId}, coalesce((SELECT source FROM pay), 'checkout'),
             ${now}, ${now}
        FROM flip
      RETURNING id, total_amount, currency
    ), items AS (
      INSERT INTO order_items (id, order_id, price_id, product_id, variant_id, product_name, quantity, unit_amount,
                               total_amount, position)
      SELECT ${itemIdStem} || lines.place, ord.id, price_id, product_id, variant_id, product_name, quantity,
             unit_amount, unit_amount * quantity, lines.place - 1
        FROM lines, ord
    ), paid AS (
      UPDATE payments p
         SET status = ${input.status}, order_id = ord.id, processor_id = ${input.processorId},
             processor_reference = ${input.processorReference}, decline_code = ${input.declineCode},
             decline_category = ${input.declineCategory}, decline_message = ${input.declineMessage},
             redirect_url = NULL,
             amount_captured = CASE WHEN ${captured}::boolean THEN p.amount ELSE p.amount_captured END,
             captured_at = CASE WHEN ${captured}::boolean THEN ${now} ELSE p.captured_at END,
             updated_at = ${now}
        FROM ord
       WHERE p.id = ${input.paymentId}
      RETURNING p.id
    ), new_events AS (
      SELECT e.*,
             ARRAY(SELECT w.id FROM webhook_endpoints w
                    WHERE w.enabled AND w.account_id = pay.account_id AND w.mode = pay.mode
                      AND w.store_id = pay.store_id AND e.webhook_type = ANY (w.event_types)
                    ORDER BY w.id) AS endpoint_ids
        FROM pay, ord, LATERAL (VALUES
        (${sessionPaidId}, ${paidEventTypes[0]}, ${sessionPaidHook}::text, ${sessionPaidEmails}::boolean, 0,
         jsonb_build_object('checkoutSessionId', pay.checkout_session_id, 'orderId', ord.id, 'paymentId', pay.id)),
        (${orderPaidId}, ${paidEventTypes[1]}, ${orderPaidHook}::text, ${orderPaidEmails}::boolean, 1,
         jsonb_build_object('orderId', ord.id, 'amount', ord.total_amount, 'currency', ord.currency,
                            'paymentId', pay.id)),
        (${paymentSucceededId}, ${paidEventTypes[2]}, ${paymentSucceededHook}::text, ${paymentSucceededEmails}::boolean, 2,
         jsonb_build_object('paymentId', pay.id, 'orderId', ord.id, 'amount', pay.amount, 'currency', pay.currency,
                            'status', ${input.status}::text, 'processorId', ${input.processorId}::text,
                            'captured', ${captured}::boolean))
      ) AS e(id, event_type, webhook_type, emails, place, properties)
    ), recorded AS (
      INSERT INTO events (id, account_id, mode, store_id, customer_id, event_type, properties, processed_at, created_at)
      SELECT e.id, pay.account_id, pay.mode, pay.store_id, pay.customer_id, e.event_type, e.properties,
             CASE WHEN e.emails OR cardinality(e.endpoint_ids) > 0 THEN NULL ELSE ${now} END,
             ${now} + e.place * interval '1 millisecond'
        FROM new_events e, pay
      RETURNING id, event_type, properties, processed_at IS NULL AS dispatch, created_at
    )
    SELECT ord.id AS "orderId", ord.total_amount AS "totalAmount", ord.currency,
           (SELECT created_at FROM pay) AS "paymentCreatedAt",
           (SELECT json_build_object('accountId', account_id, 'mode', mode, 'storeId', store_id,
                                     'customerId', customer_id) FROM pay) AS scope,
           (SELECT json_agg(json_build_object('id', r.id, 'eventType', r.event_type, 'properties', r.properties,
                                              'dispatch', r.dispatch, 'endpointIds', e.endpoint_ids)
                            ORDER BY r.created_at)
              FROM recorded r JOIN new_events e ON e.id = r.id) AS events
      FROM ord, paid`;
  if (!row?.orderId || row.totalAmount === null || !row.currency || !row.paymentCreatedAt || !row.scope) return null;
  const events = row.events ?? [];
  for (const event of events) noteEventShape(event.eventType, event.properties);
  const dispatched = events.filter((event) => event.dispatch);
  const { accountId, mode, storeId, customerId } = row.scope;
  return {
    order: { id: row.orderId, status: 'paid', totalAmount: row.totalAmount, currency: row.currency },
    eventIds: dispatched.map((event) => event.id),
    recordedEvents: dispatched.map(({ id, eventType, properties, endpointIds }) => ({
      id,
      accountId,
      mode,
      storeId,
      customerId,
      eventType,
      properties,
      endpointIds,
    })),
    paymentCreatedAt: row.paymentCreatedAt,
  };
}
