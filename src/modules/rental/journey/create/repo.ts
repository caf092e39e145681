import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import { insertEvents, type OutboxEvent } from '../../../../platform/events/emit.js';
import type { WritesWithBooking } from '../../bookings/repo.js';
import { rowsPreparedText } from '../../../../platform/db/prepared.js';
import { StatementText } from '../../../../platform/db/statement.js';

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
 * The order, its lines (in the given order), the payment due now and the booking's outbox events as CTEs of the
 * booking's own statement, reading the booking as `b` (`bookVehicleAtOnce`); the payment answers as `payment_id`.
 * Events built before the booking existed (`draft`) get the booking's id, customer and total (as the database
 * stores it) patched in by the statement. `answered` gets the payment's id.
 */
export function orderWrites(
  o: { user_id: number | null; payment_plan: string; currency: string; total: number; amount_due: number },
  lines: readonly OrderLine[],
  pay: { provider: string; amount: number },
  events: { list: readonly OutboxEvent[]; draft: boolean },
  answered: (payment: { id: number }) => void = () => undefined,
): WritesWithBooking {
  return {
    ctes: (s) => {
      const values = lines.map((l, i) => `(${s.param(i)}::int, ${s.param(l.kind)}::text, ${s.param(l.code)}::text, ${s.param(l.description)}::text, ${s.param(l.amount)}::numeric)`).join(', ');
      // a drafted payload gets the booking's id, customer and total as the statement writes them
      const completed = (json: string) => `jsonb_set(jsonb_set(jsonb_set(${json}, '{data,id}', to_jsonb(b.id)), '{data,customer_id}', to_jsonb(b.customer_id)), '{data,total}', to_jsonb(b.total::text))`;
      // a data-modifying CTE runs whether or not it is referenced
      const ev = events.list.length ? `ev AS (${insertEvents(s, events.list, { rows: 'b', ...(events.draft ? { payload: completed } : {}) })}), ` : '';
      return `${ev}o AS (INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due)
      SELECT b.id, ${s.param(o.user_id)}::bigint, ${s.param(o.payment_plan)}::text, ${s.param(o.currency)}::text, ${s.param(o.total)}::numeric, ${s.param(o.amount_due)}::numeric FROM b RETURNING id),
    l AS (INSERT INTO rental_order_lines (order_id, kind, code, description, amount)
      SELECT o.id, x.kind, x.code, x.description, x.amount FROM o, (VALUES ${values}) AS x(ord, kind, code, description, amount) ORDER BY x.ord),
    pay AS (INSERT INTO rental_payments (booking_id, provider, amount, currency)
      SELECT b.id, ${s.param(pay.provider)}::text, ${s.param(pay.amount)}::numeric, ${s.param(o.currency)}::text FROM b RETURNING id)`;
    },
    columns: { payment_id: '(SELECT id FROM pay)' },
    answered: (v) => answered({ id: Number(v.payment_id) }),
  };
}

/** The same writes for a booking written by an earlier statement of the caller's transaction: one round trip. */
export async function insertOrderWithPayment(
  db: Db,
  o: { booking_id: number; user_id: number | null; payment_plan: string; currency: string; total: number; amount_due: number },
  lines: readonly OrderLine[],
  pay: { provider: string; amount: number },
  events: readonly OutboxEvent[] = [],
): Promise<{ id: number }> {
  const s = new StatementText();
  const booking = s.param(o.booking_id);
  const ctes = orderWrites(o, lines, pay, { list: events, draft: false }).ctes(s);
  const [r] = await rowsPreparedText<{ id: number }>(db, `WITH b AS (SELECT ${booking}::bigint AS id), ${ctes} SELECT id::int AS id FROM pay`, s.params);
  return { id: r!.id };
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
