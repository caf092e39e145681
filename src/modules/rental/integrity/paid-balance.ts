import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../../platform/db/types.js';

/**
 * What a booking's payment_status says is paid, as a condition on `net` (its payments minus their refunds) and its
 * total: `paid` the total, `deposit_paid`/`partially_paid` some but not all of it, `partially_refunded` (a cancel
 * kept its fee) some of it, `unpaid`/`refunded`/`failed` nothing.
 */
const SAYS: Record<string, string> = {
  paid: 'the total',
  deposit_paid: 'more than 0 and less than the total',
  partially_paid: 'more than 0 and less than the total',
  partially_refunded: 'more than 0 and at most the total',
};

/**
 * Bookings whose money Rova records (at least one payment row; an operator's booking paid at the desk has none)
 * where what was received and kept — succeeded payments minus what was refunded of them — is not what their
 * payment_status says is paid, whatever the booking's status: a price change that kept an overpayment or asked
 * nobody for the rest, a refund written twice or not at all.
 */
export async function paidBalanceMismatches(db: Db): Promise<string[]> {
  const found = await rows<{
    booking_id: number;
    payment_status: string;
    total: string;
    net: string;
    currency: string;
  }>(
    db,
    sql`
    SELECT b.id::int AS booking_id, b.payment_status, b.total::text AS total, m.net::text AS net, b.currency
    FROM rental_bookings b
    JOIN (SELECT booking_id, COALESCE(sum(amount - refunded_amount) FILTER (WHERE status IN ('succeeded', 'refunded')), 0) AS net
          FROM rental_payments GROUP BY booking_id) m ON m.booking_id = b.id
    WHERE NOT CASE b.payment_status
      WHEN 'paid' THEN m.net = b.total
      WHEN 'deposit_paid' THEN m.net > 0 AND m.net < b.total
      WHEN 'partially_paid' THEN m.net > 0 AND m.net < b.total
      WHEN 'partially_refunded' THEN m.net > 0 AND m.net <= b.total
      ELSE m.net = 0 END
    ORDER BY b.id`,
  );
  return found.map(
    (f) =>
      `booking ${f.booking_id}: payments minus refunds are ${f.net} ${f.currency}, but payment_status ${f.payment_status} says ${SAYS[f.payment_status] ?? '0'} (total ${f.total})`,
  );
}
