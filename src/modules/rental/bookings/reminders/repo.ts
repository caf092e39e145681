import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../../../platform/db/types.js';
import type { BookingRow } from '../repo.js';

/**
 * Claims the payment reminders due now: unpaid bookings waiting for payment whose deadline is less than `hours` away
 * and which were given more than that to pay (a short card hold gets none), each once. The claim is the UPDATE of
 * `payment_reminded_at` itself, so two nodes running the job at once, or a re-run, claim each booking once.
 */
export async function claimDueReminders(db: Db, hours: number): Promise<BookingRow[]> {
  const window = sql`make_interval(hours => ${hours})`;
  return rows<BookingRow>(
    db,
    sql`UPDATE rental_bookings SET payment_reminded_at = now()
    WHERE status = 'pending_payment' AND payment_status = 'unpaid' AND payment_reminded_at IS NULL
      AND payment_deadline > now() AND payment_deadline <= now() + ${window}
      AND payment_deadline - created_at > ${window}
    RETURNING *`,
  );
}
