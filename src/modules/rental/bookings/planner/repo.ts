import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../../../../platform/db/types.js';
import { bigintArray, whereAll } from '../../sqlx.js';

export interface VehicleFilter {
  location?: number;
  category?: string;
  vendor?: number;
}

export interface PlannerVehicleRow {
  id: number;
  name: string;
  category: string;
  status: string;
  location_id: number | null;
  location_name: string | null;
  vendor_id: number | null;
  vendor_name: string | null;
  total: number;
}

/** Matching vehicles by location name then vehicle name (the first `limit`), each row carrying the matching total. */
export async function vehicles(db: Db, f: VehicleFilter, limit: number): Promise<PlannerVehicleRow[]> {
  const c: SQL[] = [];
  if (f.location !== undefined) c.push(sql`v.location_id = ${f.location}`);
  if (f.category !== undefined) c.push(sql`v.category = ${f.category}`);
  if (f.vendor !== undefined) c.push(sql`v.vendor_id = ${f.vendor}`);
  return rows<PlannerVehicleRow>(
    db,
    sql`SELECT v.id::int AS id, v.name, v.category, v.status, v.location_id::int AS location_id, l.name AS location_name,
               v.vendor_id::int AS vendor_id, COALESCE(NULLIF(u.display_name, ''), u.login) AS vendor_name, count(*) OVER ()::int AS total
        FROM rental_vehicles v
        LEFT JOIN rental_locations l ON l.id = v.location_id
        LEFT JOIN rova_users u ON u.id = v.vendor_id
        ${whereAll(c)}
        ORDER BY l.name NULLS LAST, v.name, v.id
        LIMIT ${limit}`,
  );
}

export interface PlannerBookingRow {
  id: number;
  reference: string;
  vehicle_id: number;
  kind: string;
  status: string;
  customer_name: string;
  pickup_at: unknown;
  return_at: unknown;
  holds_slot: boolean;
  payment_deadline: unknown;
  payment_status: string;
  payment_due: boolean;
  buffer_minutes: number;
}

/** bookings/repo.ts's PAYMENT_DUE on the alias `b`: under way and not fully paid. */
const PAYMENT_DUE_OF_B = sql`b.status IN ('pending_payment', 'pending', 'confirmed', 'in_progress') AND b.payment_status IN ('unpaid', 'deposit_paid', 'partially_paid')`;

/** Statuses a planner never draws (draft), and those it draws only when asked (closed). */
const CLOSED = ['cancelled', 'refunded', 'no_show'];

/**
 * Bookings of these vehicles whose period overlaps [from, to), drafts never, closed ones (cancelled, refunded,
 * no-show) only when asked: one query on the (vehicle_id, pickup_at, return_at, status) index.
 */
export async function bookingsOverlapping(
  db: Db,
  vehicleIds: readonly number[],
  from: Date,
  to: Date,
  closed: boolean,
  paymentDue = false,
): Promise<PlannerBookingRow[]> {
  if (!vehicleIds.length) return [];
  return rows<PlannerBookingRow>(
    db,
    sql`SELECT b.id::int AS id, b.reference, b.vehicle_id::int AS vehicle_id, b.kind, b.status,
               COALESCE(c.name, b.customer_name, '') AS customer_name, b.pickup_at, b.return_at, b.holds_slot,
               b.payment_deadline, b.payment_status, (${PAYMENT_DUE_OF_B}) AS payment_due, b.buffer_minutes
        FROM rental_bookings b
        LEFT JOIN rental_customers c ON c.id = b.customer_id
        WHERE b.vehicle_id = ANY(${bigintArray(vehicleIds)}::bigint[])
          AND b.pickup_at < ${to.toISOString()}::timestamptz AND b.return_at > ${from.toISOString()}::timestamptz
          AND b.status <> 'draft' ${closed ? sql`` : sql`AND b.status <> ALL(${`{${CLOSED.join(',')}}`}::text[])`}
          ${paymentDue ? sql`AND (${PAYMENT_DUE_OF_B})` : sql``}
        ORDER BY b.vehicle_id, b.pickup_at, b.id`,
  );
}

/** Filter choices: locations that have vehicles, categories in use, vendors owning vehicles. */
export async function filterOptions(db: Db): Promise<{
  locations: { id: number; name: string }[];
  categories: string[];
  vendors: { id: number; name: string }[];
}> {
  const [locations, categories, vendors] = await Promise.all([
    rows<{ id: number; name: string }>(
      db,
      sql`SELECT l.id::int AS id, l.name FROM rental_locations l WHERE EXISTS (SELECT 1 FROM rental_vehicles v WHERE v.location_id = l.id) ORDER BY l.name, l.id`,
    ),
    rows<{ category: string }>(db, sql`SELECT DISTINCT category FROM rental_vehicles ORDER BY category`),
    rows<{ id: number; name: string }>(
      db,
      sql`SELECT u.id::int AS id, COALESCE(NULLIF(u.display_name, ''), u.login) AS name FROM rova_users u
          WHERE EXISTS (SELECT 1 FROM rental_vehicles v WHERE v.vendor_id = u.id) ORDER BY 2, 1`,
    ),
  ]);
  return { locations, categories: categories.map((c) => c.category), vendors };
}
