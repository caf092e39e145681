import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';

export type RefundReason =
  | 'late_payment_slot_taken'
  | 'customer_cancelled'
  | 'operator_cancelled'
  | 'vendor_cancelled'
  | 'booking_refunded'
  | 'booking_repriced';

export interface DueRefund {
  id: number;
  payment_id: number;
  booking_id: number;
  provider: string;
  external_id: string | null;
  reason: RefundReason;
  amount: string;
  currency: string;
  attempts: number;
}

/**
 * Records a refund owed (inside the deciding transaction); a second decision for the same payment and reason is a
 * no-op — except `booking_repriced`: each price change under the booking lock is its own refund (migration 0640).
 */
export async function insertRefund(
  db: Db,
  r: { paymentId: number; bookingId: number; amount: string; currency: string; reason: RefundReason },
): Promise<number | null> {
  const row = await one<{ id: number }>(
    db,
    sql`INSERT INTO rental_refunds (payment_id, booking_id, amount, currency, reason)
    VALUES (${r.paymentId}, ${r.bookingId}, ${r.amount}, ${r.currency}, ${r.reason}) ON CONFLICT (payment_id, reason) WHERE reason <> 'booking_repriced' DO NOTHING RETURNING id::int AS id`,
  );
  return row?.id ?? null;
}

/**
 * Claims pending refunds that are due (or the given ids): each claim moves its next attempt into the future first,
 * so two nodes or a job and a request never call the provider for the same refund at once.
 */
export async function claimDueRefunds(
  db: Db,
  ids: readonly number[] | null,
  backoffSeconds: (attempts: number) => number,
): Promise<DueRefund[]> {
  const candidates = await rows<{ id: number; attempts: number }>(
    db,
    ids
      ? sql`SELECT id::int AS id, attempts FROM rental_refunds WHERE status = 'pending' AND id IN (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`
      : sql`SELECT id::int AS id, attempts FROM rental_refunds WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY id LIMIT 100`,
  );
  const out: DueRefund[] = [];
  for (const c of candidates) {
    const claimed = await one<DueRefund>(
      db,
      sql`UPDATE rental_refunds r SET attempts = r.attempts + 1,
        next_attempt_at = now() + ${backoffSeconds(c.attempts + 1)}::int * interval '1 second'
      FROM rental_payments p WHERE r.id = ${c.id} AND r.status = 'pending' AND r.attempts = ${c.attempts} AND p.id = r.payment_id
      RETURNING r.id::int AS id, r.payment_id::int AS payment_id, r.booking_id::int AS booking_id, p.provider, p.external_id, r.reason,
        r.amount::text AS amount, r.currency, r.attempts`,
    );
    if (claimed) out.push(claimed);
  }
  return out;
}

export async function markRefundDone(db: Db, id: number): Promise<void> {
  await db.execute(sql`UPDATE rental_refunds SET status = 'done', done_at = now(), last_error = NULL WHERE id = ${id}`);
}

export async function markRefundFailed(db: Db, id: number, error: string): Promise<void> {
  await db.execute(sql`UPDATE rental_refunds SET last_error = ${error.slice(0, 500)} WHERE id = ${id}`);
}
