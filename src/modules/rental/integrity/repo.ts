import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../../platform/db/types.js';

/** Cancelled or refunded bookings holding a succeeded payment that is neither refunded nor owed a refund. */
export async function bookingsKeepingMoney(db: Db): Promise<{ booking_id: number; payment_id: number }[]> {
  return rows(
    db,
    sql`SELECT b.id::int AS booking_id, p.id::int AS payment_id FROM rental_bookings b JOIN rental_payments p ON p.booking_id = b.id
    WHERE b.status IN ('cancelled', 'refunded') AND p.status = 'succeeded' AND p.refunded_amount < p.amount
      AND NOT EXISTS (SELECT 1 FROM rental_refunds r WHERE r.payment_id = p.id)
    ORDER BY b.id, p.id`,
  );
}

/** Two bookings holding the same vehicle over overlapping slots (times plus buffer, as the exclusion constraint sees them). */
export async function overlappingHolders(db: Db): Promise<{ a: number; b: number; vehicle_id: number }[]> {
  return rows(
    db,
    sql`SELECT x.id::int AS a, y.id::int AS b, x.vehicle_id::int AS vehicle_id FROM rental_bookings x
    JOIN rental_bookings y ON y.vehicle_id = x.vehicle_id AND y.id > x.id AND y.holds_slot
      AND y.slot && x.slot
    WHERE x.holds_slot ORDER BY x.id, y.id`,
  );
}

/**
 * Bookings holding a vehicle over a block of it (a vendor's maintenance or own use, migration 0725): the booking's
 * slot (its times plus the buffer) meets the block, which neither a block over a booking nor a booking over a block
 * may do.
 */
export async function bookingsOverBlocks(
  db: Db,
): Promise<{ booking_id: number; block_id: number; vehicle_id: number }[]> {
  return rows(
    db,
    sql`SELECT b.id::int AS booking_id, k.id::int AS block_id, b.vehicle_id::int AS vehicle_id
    FROM rental_bookings b JOIN rental_vehicle_blocks k ON k.vehicle_id = b.vehicle_id
      AND b.slot && tstzrange(k.starts_at, k.ends_at)
    WHERE b.holds_slot ORDER BY b.id, k.id`,
  );
}

/** Refund rows whose payment does not belong to the refund's booking. */
export async function strayRefunds(db: Db): Promise<{ refund_id: number }[]> {
  return rows(
    db,
    sql`SELECT r.id::int AS refund_id FROM rental_refunds r LEFT JOIN rental_payments p ON p.id = r.payment_id
    WHERE p.id IS NULL OR p.booking_id <> r.booking_id ORDER BY r.id`,
  );
}
