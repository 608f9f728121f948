import { maxAmount } from '../../domain/checkoutTotals';
import { newId, randomBase62 } from '../../domain/ids';
import { Prisma, type Db } from '../../db/prisma';
import { emailKindOfEvent } from '../../email/eventEmails';
import { noteEventShape } from '../../events/recordEvent';
import { webhookTypeOf } from '../../webhooks/catalogue';
import type { FinalizeInput, OrderSummary } from '../workflowTypes';

/** What the one statement recorded; null when it wrote nothing and the transaction path must decide. */
export interface PaidCheckoutRecorded {
  order: OrderSummary;
  /** Events with a subscribed endpoint, in order: the workflow's dispatch step delivers them. */
  eventIds: string[];
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
  const [row] = await db.$queryRaw<
    {
      orderId: string | null;
      totalAmount: number | null;
      currency: string | null;
      paymentCreatedAt: Date | null;
      events: { id: string; eventType: string; properties: unknown; dispatch: boolean }[] | null;
    }[]
  >`
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
      SELECT e.* FROM pay, ord, LATERAL (VALUES
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
             CASE WHEN e.emails OR EXISTS (SELECT 1 FROM webhook_endpoints w
                                WHERE w.enabled AND w.account_id = pay.account_id AND w.mode = pay.mode
                                  AND w.store_id = pay.store_id AND e.webhook_type = ANY (w.event_types))
                  THEN NULL ELSE ${now} END,
             ${now} + e.place * interval '1 millisecond'
        FROM new_events e, pay
      RETURNING id, event_type, properties, processed_at IS NULL AS dispatch, created_at
    )
    SELECT ord.id AS "orderId", ord.total_amount AS "totalAmount", ord.currency,
           (SELECT created_at FROM pay) AS "paymentCreatedAt",
           (SELECT json_agg(json_build_object('id', id, 'eventType', event_type, 'properties', properties,
                                              'dispatch', dispatch) ORDER BY created_at)
              FROM recorded) AS events
      FROM ord, paid`;
  if (!row?.orderId || row.totalAmount === null || !row.currency || !row.paymentCreatedAt) return null;
  const events = row.events ?? [];
  for (const event of events) noteEventShape(event.eventType, event.properties);
  return {
    order: { id: row.orderId, status: 'paid', totalAmount: row.totalAmount, currency: row.currency },
    eventIds: events.filter((event) => event.dispatch).map((event) => event.id),
    paymentCreatedAt: row.paymentCreatedAt,
  };
}
