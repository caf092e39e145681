import { sql } from 'drizzle-orm';
import { rowsPrepared } from '../../../platform/db/prepared.js';
import { toDate, toDateOrNull, type Db } from '../../../platform/db/types.js';
import { bigintArray } from '../sqlx.js';

/**
 * One booking's claim on its vehicle, as the overlap query sees it: [from, to) until `until` (null = for good). A
 * vehicle block (vehicles/block-repo.ts) is one too, with the block's id negated.
 */
export interface HoldInterval {
  id: number;
  vehicleId: number;
  from: number;
  to: number;
  /** A pending hold's payment deadline (epoch ms): past it the hold no longer counts (findOverlap's rule). */
  until: number | null;
}

/**
 * The holding bookings of some vehicles (null = all) that end after `since`: the statuses findOverlap and
 * busyVehicles count, with the deadline for the pending ones; and the vehicles' blocks (negative ids).
 */
export async function holdIntervals(
  db: Db,
  vehicleIds: readonly number[] | null,
  since: Date,
): Promise<HoldInterval[]> {
  const only = vehicleIds === null ? sql`` : sql`AND vehicle_id = ANY(${bigintArray(vehicleIds)}::bigint[])`;
  // a vehicle block holds the vehicle like a confirmed booking; its id is negated so it never meets a booking's
  const r = await rowsPrepared<HoldRow>(
    db,
    sql`/* holding index */
    SELECT id, vehicle_id, pickup_at, return_at, status, payment_deadline FROM rental_bookings
    WHERE status IN ('pending_payment', 'pending', 'confirmed', 'in_progress') AND return_at > ${since.toISOString()}::timestamptz ${only}
    UNION ALL
    SELECT -id, vehicle_id, starts_at, ends_at, 'blocked', NULL FROM rental_vehicle_blocks
    WHERE ends_at > ${since.toISOString()}::timestamptz ${only}`,
  );
  return r.map(holdInterval);
}

/**
 * Some bookings as they stand now, whatever their status (a cancelled one holds nothing): `holding` says whether
 * holdIntervals would list it. A booking that no longer exists is simply absent.
 */
export async function bookingHolds(
  db: Db,
  bookingIds: readonly number[],
  since: Date,
): Promise<(HoldInterval & { holding: boolean })[]> {
  const r = await rowsPrepared<HoldRow & { holding: boolean }>(
    db,
    sql`/* holding index */ /* announced bookings */
    SELECT id, vehicle_id, pickup_at, return_at, status, payment_deadline,
      status IN ('pending_payment', 'pending', 'confirmed', 'in_progress') AND return_at > ${since.toISOString()}::timestamptz AS holding
    FROM rental_bookings WHERE id = ANY(${bigintArray(bookingIds)}::bigint[])`,
  );
  return r.map((b) => ({ ...holdInterval(b), holding: b.holding }));
}

interface HoldRow {
  id: string;
  vehicle_id: string;
  pickup_at: string;
  return_at: string;
  status: string;
  payment_deadline: string | null;
}

function holdInterval(b: HoldRow): HoldInterval {
  return {
    id: Number(b.id),
    vehicleId: Number(b.vehicle_id),
    from: toDate(b.pickup_at).getTime(),
    to: toDate(b.return_at).getTime(),
    until:
      b.status === 'pending_payment' || b.status === 'pending'
        ? (toDateOrNull(b.payment_deadline)?.getTime() ?? null)
        : null,
  };
}
