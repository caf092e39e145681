import { sql } from 'drizzle-orm';
import { one, type Db } from '../../../../platform/db/types.js';

export type DeskMethod = 'cash' | 'card_terminal' | 'bank_transfer' | 'other';

/** A payment the desk took (succeeded when written): how, its receipt or transfer reference, who recorded it. */
export async function insertRecordedPayment(
  db: Db,
  p: {
    bookingId: number;
    amount: string;
    currency: string;
    method: DeskMethod;
    reference: string | null;
    recordedBy: number | null;
  },
): Promise<number> {
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rental_payments (booking_id, provider, amount, currency, status, method, reference, recorded_by)
    VALUES (${p.bookingId}, 'offline', ${p.amount}::numeric, ${p.currency}, 'succeeded', ${p.method}, ${p.reference}, ${p.recordedBy})
    RETURNING id::int AS id`,
  );
  return r!.id;
}
