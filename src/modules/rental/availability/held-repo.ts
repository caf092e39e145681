import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../../platform/db/types.js';

/**
 * Vehicles (among `ids`, or all when null) held by a booking or a block between `from` and `to` (buffer applied by
 * the caller): one query for a whole result page, the same holding rule as findOverlap.
 */
export async function busyVehicles(db: Db, ids: readonly number[] | null, from: Date, to: Date): Promise<Set<number>> {
  if (ids !== null && ids.length === 0) return new Set();
  const only =
    ids === null
      ? sql``
      : sql`AND vehicle_id IN (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`;
  const r = await rows<{ vehicle_id: string | number }>(
    db,
    sql`SELECT vehicle_id FROM rental_bookings
    WHERE pickup_at < ${to.toISOString()}::timestamptz AND return_at > ${from.toISOString()}::timestamptz ${only}
      AND (status IN ('confirmed', 'in_progress')
           OR (status IN ('pending_payment', 'pending') AND (payment_deadline IS NULL OR payment_deadline > now())))
    UNION
    SELECT vehicle_id FROM rental_vehicle_blocks
    WHERE starts_at < ${to.toISOString()}::timestamptz AND ends_at > ${from.toISOString()}::timestamptz ${only}`,
  );
  return new Set(r.map((x) => Number(x.vehicle_id)));
}
