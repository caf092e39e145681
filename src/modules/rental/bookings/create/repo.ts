import { sql } from 'drizzle-orm';
import { untilAnswered } from '../../../../platform/db/answered.js';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import type { OrderLine } from './statement.js';

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

export async function orderOf(
  db: Db,
  bookingId: number,
): Promise<
  | { id: number; user_id: number | null; payment_plan: 'deposit' | 'full'; amount_due: string; lines: OrderLine[] }
  | undefined
> {
  const o = await one<{ id: number; user_id: number | null; payment_plan: 'deposit' | 'full'; amount_due: string }>(
    db,
    sql`SELECT id::int AS id, user_id::int AS user_id, payment_plan, amount_due::text AS amount_due FROM rental_orders WHERE booking_id = ${bookingId}`,
  );
  if (!o) return undefined;
  const lines = await rows<OrderLine & { amount: string }>(
    db,
    sql`SELECT kind, code, description, amount::text AS amount, quantity FROM rental_order_lines WHERE order_id = ${o.id} ORDER BY id`,
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
