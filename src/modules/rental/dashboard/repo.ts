import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';

export interface MonthFigures {
  month: string;
  total_bookings: number;
  bookings_this_month: number;
  bookings_last_month: number;
  revenue: string;
  revenue_this_month: string;
  revenue_last_month: string;
  customers_this_month: number;
  customers_last_month: number;
}

/**
 * KPI figures in one pass. "This month" = [first of the month 00:00, first of next month 00:00) in the
 * store time zone at `now`; last month likewise. Drafts are not bookings.
 */
export async function monthFigures(db: Db, tz: string, now: Date): Promise<MonthFigures> {
  const r = await one<MonthFigures>(
    db,
    sql`WITH m AS (
          SELECT date_trunc('month', ${now.toISOString()}::timestamptz AT TIME ZONE ${tz}) AS local_start
        ), w AS (
          SELECT to_char(local_start, 'YYYY-MM') AS month,
                 (local_start AT TIME ZONE ${tz}) AS this_lo,
                 ((local_start + interval '1 month') AT TIME ZONE ${tz}) AS this_hi,
                 ((local_start - interval '1 month') AT TIME ZONE ${tz}) AS last_lo
          FROM m
        )
        SELECT w.month,
               count(b.id)::int AS total_bookings,
               count(b.id) FILTER (WHERE b.created_at >= w.this_lo AND b.created_at < w.this_hi)::int AS bookings_this_month,
               count(b.id) FILTER (WHERE b.created_at >= w.last_lo AND b.created_at < w.this_lo)::int AS bookings_last_month,
               COALESCE(sum(b.total) FILTER (WHERE b.status IN ('confirmed', 'completed')), 0)::text AS revenue,
               COALESCE(sum(b.total) FILTER (WHERE b.status IN ('confirmed', 'completed') AND b.created_at >= w.this_lo AND b.created_at < w.this_hi), 0)::text AS revenue_this_month,
               COALESCE(sum(b.total) FILTER (WHERE b.status IN ('confirmed', 'completed') AND b.created_at >= w.last_lo AND b.created_at < w.this_lo), 0)::text AS revenue_last_month,
               count(DISTINCT b.customer_id) FILTER (WHERE b.created_at >= w.this_lo AND b.created_at < w.this_hi)::int AS customers_this_month,
               count(DISTINCT b.customer_id) FILTER (WHERE b.created_at >= w.last_lo AND b.created_at < w.this_lo)::int AS customers_last_month
        FROM w LEFT JOIN rental_bookings b ON b.status <> 'draft'
        GROUP BY w.month`,
  );
  return r!;
}

export async function vehicleFigures(
  db: Db,
  tz: string,
  now: Date,
): Promise<{ active: number; active_before_month: number }> {
  const r = await one<{ active: number; active_before_month: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'active')::int AS active,
               count(*) FILTER (WHERE status = 'active'
                 AND created_at < (date_trunc('month', ${now.toISOString()}::timestamptz AT TIME ZONE ${tz}) AT TIME ZONE ${tz}))::int AS active_before_month
        FROM rental_vehicles`,
  );
  return r ?? { active: 0, active_before_month: 0 };
}

export async function statusBreakdown(db: Db): Promise<{ status: string; count: number }[]> {
  return rows(
    db,
    sql`SELECT status, count(*)::int AS count FROM rental_bookings WHERE status <> 'draft' GROUP BY status ORDER BY count(*) DESC, status`,
  );
}

export interface BookingListRow {
  id: number;
  kind: string;
  status: string;
  customer_id: number | null;
  customer_name: string;
  customer_email: string;
  vehicle_id: number | null;
  vehicle_name: string;
  pickup_at: string;
  return_at: string | null;
  total: string;
  created_at: string;
  reference: string;
  currency: string;
}

export async function recentBookings(
  db: Db,
  limit: number,
  offset: number,
): Promise<{ items: BookingListRow[]; total: number }> {
  const total =
    (await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rental_bookings WHERE status <> 'draft'`))?.n ?? 0;
  const items = await rows<BookingListRow>(
    db,
    sql`SELECT b.id::int AS id, b.kind, b.status, b.customer_id::int AS customer_id,
               COALESCE(c.name, b.customer_name, '') AS customer_name, COALESCE(c.email, b.customer_email, '') AS customer_email,
               b.vehicle_id::int AS vehicle_id, COALESCE(v.name, '') AS vehicle_name,
               b.pickup_at::text AS pickup_at, b.return_at::text AS return_at, b.total::text AS total, b.created_at::text AS created_at,
               b.reference, b.currency
        FROM rental_bookings b
        LEFT JOIN rental_customers c ON c.id = b.customer_id
        LEFT JOIN rental_vehicles v ON v.id = b.vehicle_id
        WHERE b.status <> 'draft'
        ORDER BY b.created_at DESC, b.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  return { items, total };
}

export interface TransferRow {
  id: number;
  status: string;
  customer_name: string;
  vehicle_id: number | null;
  vehicle_name: string;
  origin_id: number | null;
  origin_name: string;
  destination_id: number | null;
  destination_name: string;
  pickup_at: string;
  passengers: number | null;
  reference: string;
  currency: string;
  total: string;
}

export async function upcomingTransfers(
  db: Db,
  now: Date,
  limit: number,
  offset: number,
): Promise<{ items: TransferRow[]; total: number }> {
  const at = now.toISOString();
  const cond = sql`b.kind = 'transfer' AND b.pickup_at >= ${at}::timestamptz AND b.status NOT IN ('draft', 'cancelled', 'refunded', 'no_show', 'completed')`;
  const total =
    (await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rental_bookings b WHERE ${cond}`))?.n ?? 0;
  const items = await rows<TransferRow>(
    db,
    sql`SELECT b.id::int AS id, b.status, COALESCE(c.name, b.customer_name, '') AS customer_name,
               b.vehicle_id::int AS vehicle_id, COALESCE(v.name, '') AS vehicle_name,
               r.origin_location_id::int AS origin_id, COALESCE(b.transfer_origin, o.name, r.origin, '') AS origin_name,
               r.destination_location_id::int AS destination_id, COALESCE(b.transfer_destination, d.name, r.destination, '') AS destination_name,
               b.passengers, b.reference, b.currency,
               b.pickup_at::text AS pickup_at, b.total::text AS total
        FROM rental_bookings b
        LEFT JOIN rental_customers c ON c.id = b.customer_id
        LEFT JOIN rental_vehicles v ON v.id = b.vehicle_id
        LEFT JOIN rental_transfer_routes r ON r.id = b.transfer_route_id
        LEFT JOIN rental_locations o ON o.id = r.origin_location_id
        LEFT JOIN rental_locations d ON d.id = r.destination_location_id
        WHERE ${cond}
        ORDER BY b.pickup_at, b.id LIMIT ${limit} OFFSET ${offset}`,
  );
  return { items, total };
}
