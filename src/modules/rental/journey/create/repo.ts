import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';

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

export async function insertOrder(db: Db, o: { booking_id: number; user_id: number | null; payment_plan: string; currency: string; total: number; amount_due: number }, lines: OrderLine[]): Promise<number> {
  const r = await one<{ id: number }>(db, sql`INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due)
    VALUES (${o.booking_id}, ${o.user_id}, ${o.payment_plan}, ${o.currency}, ${o.total}, ${o.amount_due}) RETURNING id::int AS id`);
  for (const l of lines) {
    await db.execute(sql`INSERT INTO rental_order_lines (order_id, kind, code, description, amount) VALUES (${r!.id}, ${l.kind}, ${l.code}, ${l.description}, ${l.amount})`);
  }
  return r!.id;
}

export async function orderOf(db: Db, bookingId: number): Promise<{ id: number; user_id: number | null; payment_plan: string; amount_due: string; lines: OrderLine[] } | undefined> {
  const o = await one<{ id: number; user_id: number | null; payment_plan: string; amount_due: string }>(db,
    sql`SELECT id::int AS id, user_id::int AS user_id, payment_plan, amount_due::text AS amount_due FROM rental_orders WHERE booking_id = ${bookingId}`);
  if (!o) return undefined;
  const lines = await rows<OrderLine & { amount: string }>(db, sql`SELECT kind, code, description, amount::text AS amount FROM rental_order_lines WHERE order_id = ${o.id} ORDER BY id`);
  return { ...o, lines: lines.map((l) => ({ ...l, amount: Number(l.amount) })) };
}

export async function insertPayment(db: Db, p: { booking_id: number; provider: string; amount: number; currency: string }): Promise<PaymentRow> {
  return (await one<PaymentRow>(db, sql`INSERT INTO rental_payments (booking_id, provider, amount, currency)
    VALUES (${p.booking_id}, ${p.provider}, ${p.amount}, ${p.currency}) RETURNING id::int AS id, booking_id::int AS booking_id, provider, external_id, amount::text AS amount, currency, status, refunded_amount::text AS refunded_amount`))!;
}

const PAY = sql`id::int AS id, booking_id::int AS booking_id, provider, external_id, amount::text AS amount, currency, status, refunded_amount::text AS refunded_amount`;

export async function paymentsOf(db: Db, bookingId: number, forUpdate = false): Promise<PaymentRow[]> {
  return rows<PaymentRow>(db, sql`SELECT ${PAY} FROM rental_payments WHERE booking_id = ${bookingId} ORDER BY id ${forUpdate ? sql`FOR UPDATE` : sql``}`);
}

export async function setPayment(db: Db, id: number, f: { status?: string; external_id?: string; refunded_amount?: number }): Promise<void> {
  await db.execute(sql`UPDATE rental_payments SET status = COALESCE(${f.status ?? null}, status), external_id = COALESCE(${f.external_id ?? null}, external_id),
    refunded_amount = COALESCE(${f.refunded_amount ?? null}, refunded_amount), updated_at = now() WHERE id = ${id}`);
}

/** The rental customer record of a user account: linked by user_id, else by e-mail (then linked), else created. */
export async function customerForUser(db: Db, u: { id: number; email: string; name: string; phone: string }): Promise<{ id: number; name: string; email: string }> {
  const linked = await one<{ id: number; name: string; email: string }>(db, sql`SELECT id::int AS id, name, email FROM rental_customers WHERE user_id = ${u.id} ORDER BY id LIMIT 1`);
  if (linked) return linked;
  const byMail = await one<{ id: number; name: string; email: string }>(db, sql`UPDATE rental_customers SET user_id = ${u.id}, updated_at = now()
    WHERE lower(email) = lower(${u.email}) AND user_id IS NULL RETURNING id::int AS id, name, email`);
  if (byMail) return byMail;
  return (await one<{ id: number; name: string; email: string }>(db, sql`INSERT INTO rental_customers (name, email, phone, user_id)
    VALUES (${u.name}, ${u.email}, ${u.phone}, ${u.id}) ON CONFLICT (lower(email)) DO UPDATE SET updated_at = now() RETURNING id::int AS id, name, email`))!;
}
