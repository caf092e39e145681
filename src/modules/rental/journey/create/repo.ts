import { sql } from 'drizzle-orm';
import { untilAnswered } from '../../../../platform/db/answered.js';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import type { OutboxEvent } from '../../../../platform/events/emit.js';
import type { WritesWithBookings } from '../../bookings/repo.js';
import { rowsPreparedText } from '../../../../platform/db/prepared.js';

export interface OrderLine {
  kind: 'rental' | 'addon' | 'tax' | 'deposit' | 'full';
  code: string | null;
  description: string;
  amount: number;
}

export interface PaymentRow {
  id: number;
  booking_id: number;
  provider: 'offline' | 'stripe';
  external_id: string | null;
  amount: string;
  currency: string;
  status: 'pending' | 'succeeded' | 'failed' | 'refunded' | 'cancelled';
  refunded_amount: string;
}

const PAY = sql`id::int AS id, booking_id::int AS booking_id, provider, external_id, amount::text AS amount, currency, status, refunded_amount::text AS refunded_amount`;

/**
 * The order, its lines (in the given order), the payment due now and the booking's outbox events as CTEs of the
 * bookings' own statement, for every booking of its batch (`bookVehiclesAtOnce`: the new bookings are `b`, each one's
 * data `i.x`, joined on `i.ref = b.reference`). Events built before the booking existed (`draft`) get the booking's
 * id, customer and total (as the database stores it) patched in by the statement.
 */
const ORDER_WRITES = `ev AS (INSERT INTO rova_events (event_id, type, payload)
      SELECT e.j->>'eventId', e.j->>'type', CASE WHEN (i.x->>'draft')::boolean
          THEN jsonb_set(jsonb_set(jsonb_set((e.j->>'payload')::jsonb, '{data,id}', to_jsonb(b.id)), '{data,customer_id}', to_jsonb(b.customer_id)), '{data,total}', to_jsonb(b.total::text))
          ELSE (e.j->>'payload')::jsonb END
      FROM b JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'events') WITH ORDINALITY AS e(j, ord) ORDER BY i.k, e.ord),
    o AS (INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due)
      SELECT b.id, (i.x#>>'{order,user_id}')::bigint, i.x#>>'{order,payment_plan}', i.x#>>'{order,currency}', (i.x#>>'{order,total}')::numeric, (i.x#>>'{order,amount_due}')::numeric
      FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id),
    l AS (INSERT INTO rental_order_lines (order_id, kind, code, description, amount)
      SELECT o.id, x.j->>'kind', x.j->>'code', x.j->>'description', (x.j->>'amount')::numeric
      FROM o JOIN b ON b.id = o.booking_id JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'lines') WITH ORDINALITY AS x(j, ord)
      ORDER BY i.k, x.ord),
    pay AS (INSERT INTO rental_payments (booking_id, provider, amount, currency)
      SELECT b.id, i.x#>>'{pay,provider}', (i.x#>>'{pay,amount}')::numeric, i.x#>>'{order,currency}' FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id)`;

interface OrderOfBooking {
  user_id: number | null;
  payment_plan: string;
  currency: string;
  total: number;
  amount_due: number;
}

function orderData(
  o: OrderOfBooking,
  lines: readonly OrderLine[],
  pay: { provider: string; amount: number },
  events: { list: readonly OutboxEvent[]; draft: boolean },
): Record<string, unknown> {
  return {
    draft: events.draft,
    // the events and lines go as they are: the statement reads their fields by these names
    events: events.list,
    order: o,
    lines,
    pay,
  };
}

/** The writes of a customer's new booking made by the booking's own statement; the payment answers as `payment_id`. */
export function orderWrites(
  o: OrderOfBooking,
  lines: readonly OrderLine[],
  pay: { provider: string; amount: number },
  events: readonly OutboxEvent[],
  answered: (payment: { id: number }) => void,
): WritesWithBookings {
  return {
    ctes: ORDER_WRITES,
    data: orderData(o, lines, pay, { list: events, draft: true }),
    columns: { payment_id: '(SELECT pay.id FROM pay WHERE pay.booking_id = b.id)' },
    answered: (v) => answered({ id: Number(v.payment_id) }),
  };
}

/**
 * The same writes for a booking written by an earlier statement of the caller's transaction: one round trip. With
 * `mail` (`bookingMailWithBooking`) the booking mail is stored by the same statement, in that transaction.
 */
export async function insertOrderWithPayment(
  db: Db,
  o: OrderOfBooking & { booking_id: number },
  lines: readonly OrderLine[],
  pay: { provider: string; amount: number },
  events: readonly OutboxEvent[] = [],
  mail?: { booking: { customer_email: string; customer_name: string }; cte: string; data: object },
): Promise<{ id: number }> {
  const { booking_id: bookingId, ...order } = o;
  const data = orderData(order, lines, pay, { list: events, draft: false });
  const [r] = await rowsPreparedText<{ id: number }>(
    db,
    `WITH
    b AS (SELECT $1::bigint AS id, 'b'::text AS reference, NULL::bigint AS customer_id, NULL::numeric AS total, $3::text AS customer_email, $4::text AS customer_name),
    i AS (SELECT 0 AS k, 'b'::text AS ref, $2::jsonb AS x),
    ${ORDER_WRITES}${mail ? `, ${mail.cte}` : ''}
    SELECT id::int AS id FROM pay`,
    [
      bookingId,
      JSON.stringify(mail ? { ...data, mail: mail.data } : data),
      mail?.booking.customer_email ?? '',
      mail?.booking.customer_name ?? '',
    ],
  );
  return { id: r!.id };
}

export async function orderOf(
  db: Db,
  bookingId: number,
): Promise<
  { id: number; user_id: number | null; payment_plan: string; amount_due: string; lines: OrderLine[] } | undefined
> {
  const o = await one<{ id: number; user_id: number | null; payment_plan: string; amount_due: string }>(
    db,
    sql`SELECT id::int AS id, user_id::int AS user_id, payment_plan, amount_due::text AS amount_due FROM rental_orders WHERE booking_id = ${bookingId}`,
  );
  if (!o) return undefined;
  const lines = await rows<OrderLine & { amount: string }>(
    db,
    sql`SELECT kind, code, description, amount::text AS amount FROM rental_order_lines WHERE order_id = ${o.id} ORDER BY id`,
  );
  return { ...o, lines: lines.map((l) => ({ ...l, amount: Number(l.amount) })) };
}

export async function paymentsOf(db: Db, bookingId: number, forUpdate = false): Promise<PaymentRow[]> {
  return rows<PaymentRow>(
    db,
    sql`SELECT ${PAY} FROM rental_payments WHERE booking_id = ${bookingId} ORDER BY id ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
}

export async function setPayment(
  db: Db,
  id: number,
  f: { status?: string; external_id?: string; refunded_amount?: number | string; amount?: string },
): Promise<void> {
  await db.execute(sql`UPDATE rental_payments SET status = COALESCE(${f.status ?? null}, status), external_id = COALESCE(${f.external_id ?? null}, external_id),
    refunded_amount = COALESCE(${f.refunded_amount ?? null}::numeric, refunded_amount), amount = COALESCE(${f.amount ?? null}::numeric, amount), updated_at = now() WHERE id = ${id}`);
}

/**
 * setPayment outside a transaction (after the booking committed: the provider's intent id, or the payment failed to
 * start). It sets fixed values, so a statement whose connection died is sent again until answered (`untilAnswered`,
 * for at most `waitMs`) instead of answering 503 for a booking that exists.
 */
export function setPaymentAnswered(
  db: Db,
  id: number,
  f: Parameters<typeof setPayment>[2],
  waitMs: number,
): Promise<void> {
  return untilAnswered(() => setPayment(db, id, f), waitMs);
}

/**
 * A pending payment of an amount due on an existing booking: a provider's is marked to be started (after commit,
 * and by the journey job until it is, startDuePayments).
 */
export async function insertPendingPayment(
  db: Db,
  p: { bookingId: number; provider: string; amount: string; currency: string },
): Promise<number> {
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rental_payments (booking_id, provider, amount, currency, provider_action)
    VALUES (${p.bookingId}, ${p.provider}, ${p.amount}, ${p.currency}, ${p.provider === 'offline' ? null : 'start'}) RETURNING id::int AS id`,
  );
  return r!.id;
}

/** The order's payment plan (undefined: an operator's booking, which has no order). */
export async function orderPlanOf(db: Db, bookingId: number): Promise<'deposit' | 'full' | undefined> {
  return (
    await one<{ payment_plan: 'deposit' | 'full' }>(
      db,
      sql`SELECT payment_plan FROM rental_orders WHERE booking_id = ${bookingId}`,
    )
  )?.payment_plan;
}

/** The order follows its booking's price: its total, and what is asked of the customer now. */
export async function setOrderAmounts(db: Db, bookingId: number, total: string, amountDue: string): Promise<void> {
  await db.execute(
    sql`UPDATE rental_orders SET total = ${total}, amount_due = ${amountDue} WHERE booking_id = ${bookingId}`,
  );
}
