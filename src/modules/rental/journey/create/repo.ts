import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import { insertEvents, type OutboxEvent } from '../../../../platform/events/emit.js';

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
  status: 'pending' | 'succeeded' | 'failed' | 'refunded';
  refunded_amount: string;
}

const PAY = sql`id::int AS id, booking_id::int AS booking_id, provider, external_id, amount::text AS amount, currency, status, refunded_amount::text AS refunded_amount`;

/**
 * The order, its lines (in the given order), the payment due now and the booking's outbox events, in one
 * statement: the create path's writes after the booking row cost one round trip, not one per line.
 */
export async function insertOrderWithPayment(
  db: Db,
  o: { booking_id: number; user_id: number | null; payment_plan: string; currency: string; total: number; amount_due: number },
  lines: readonly OrderLine[],
  pay: { provider: string; amount: number },
  events: readonly OutboxEvent[] = [],
): Promise<PaymentRow> {
  const values = sql.join(lines.map((l, i) => sql`(${i}::int, ${l.kind}::text, ${l.code}::text, ${l.description}::text, ${l.amount}::numeric)`), sql`, `);
  // the booking's outbox events ride along (a data-modifying CTE runs whether or not it is referenced)
  const ev = events.length ? sql`ev AS (${insertEvents(events)}), ` : sql``;
  return (await one<PaymentRow>(db, sql`WITH ${ev}o AS (INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due)
      VALUES (${o.booking_id}, ${o.user_id}, ${o.payment_plan}, ${o.currency}, ${o.total}, ${o.amount_due}) RETURNING id),
    l AS (INSERT INTO rental_order_lines (order_id, kind, code, description, amount)
      SELECT o.id, x.kind, x.code, x.description, x.amount FROM o, (VALUES ${values}) AS x(ord, kind, code, description, amount) ORDER BY x.ord)
    INSERT INTO rental_payments (booking_id, provider, amount, currency)
    VALUES (${o.booking_id}, ${pay.provider}, ${pay.amount}, ${o.currency}) RETURNING ${PAY}`))!;
}

export async function orderOf(db: Db, bookingId: number): Promise<{ id: number; user_id: number | null; payment_plan: string; amount_due: string; lines: OrderLine[] } | undefined> {
  const o = await one<{ id: number; user_id: number | null; payment_plan: string; amount_due: string }>(db,
    sql`SELECT id::int AS id, user_id::int AS user_id, payment_plan, amount_due::text AS amount_due FROM rental_orders WHERE booking_id = ${bookingId}`);
  if (!o) return undefined;
  const lines = await rows<OrderLine & { amount: string }>(db, sql`SELECT kind, code, description, amount::text AS amount FROM rental_order_lines WHERE order_id = ${o.id} ORDER BY id`);
  return { ...o, lines: lines.map((l) => ({ ...l, amount: Number(l.amount) })) };
}

export async function paymentsOf(db: Db, bookingId: number, forUpdate = false): Promise<PaymentRow[]> {
  return rows<PaymentRow>(db, sql`SELECT ${PAY} FROM rental_payments WHERE booking_id = ${bookingId} ORDER BY id ${forUpdate ? sql`FOR UPDATE` : sql``}`);
}

export async function setPayment(db: Db, id: number, f: { status?: string; external_id?: string; refunded_amount?: number }): Promise<void> {
  await db.execute(sql`UPDATE rental_payments SET status = COALESCE(${f.status ?? null}, status), external_id = COALESCE(${f.external_id ?? null}, external_id),
    refunded_amount = COALESCE(${f.refunded_amount ?? null}, refunded_amount), updated_at = now() WHERE id = ${id}`);
}
