import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import type { DateRange } from '../shared/dates.js';

/**
 * Report SQL. Bookings are selected by creation instant in [start 00:00, end+1 00:00) of the store time zone
 * (index rental_bookings_created_at), grouped by their local creation date; drafts are never counted.
 */
export interface Scope {
  range: DateRange;
  tz: string;
}

const lo = (s: Scope) => sql`((${s.range.start}::date)::timestamp AT TIME ZONE ${s.tz})`;
const hi = (s: Scope) => sql`(((${s.range.end}::date) + 1)::timestamp AT TIME ZONE ${s.tz})`;
/** Bookings (alias b) created in the range, drafts excluded. */
export const inRange = (s: Scope): SQL =>
  sql`b.created_at >= ${lo(s)} AND b.created_at < ${hi(s)} AND b.status <> 'draft'`;
const localDay = (s: Scope) => sql`(b.created_at AT TIME ZONE ${s.tz})::date`;
const days = (s: Scope) =>
  sql`generate_series(${s.range.start}::timestamp, ${s.range.end}::timestamp, interval '1 day')`;

const REVENUE = sql`b.status IN ('confirmed', 'completed')`;
const SPENT = sql`b.status IN ('confirmed', 'in_progress', 'completed')`;
const OCCUPYING = sql`b.status IN ('confirmed', 'in_progress', 'completed')`;

export interface RevenueDay {
  date: string;
  revenue: string;
  bookings: number;
  cancelled: string;
}

export async function revenueSeries(db: Db, s: Scope): Promise<RevenueDay[]> {
  return rows<RevenueDay>(
    db,
    sql`SELECT d::date::text AS date, COALESCE(a.revenue, 0)::text AS revenue, COALESCE(a.bookings, 0)::int AS bookings,
               COALESCE(a.cancelled, 0)::text AS cancelled
        FROM ${days(s)} AS d
        LEFT JOIN (
          SELECT ${localDay(s)} AS day,
                 sum(b.total) FILTER (WHERE ${REVENUE}) AS revenue,
                 count(*) FILTER (WHERE ${REVENUE}) AS bookings,
                 sum(b.total) FILTER (WHERE b.status = 'cancelled') AS cancelled
          FROM rental_bookings b WHERE ${inRange(s)} GROUP BY 1
        ) a ON a.day = d::date
        ORDER BY d`,
  );
}

export async function revenueByMethod(db: Db, s: Scope): Promise<{ method: string; revenue: string; count: number }[]> {
  return rows(
    db,
    sql`SELECT COALESCE(NULLIF(b.payment_method, ''), 'unknown') AS method, sum(b.total)::text AS revenue, count(*)::int AS count
        FROM rental_bookings b WHERE ${inRange(s)} AND ${REVENUE}
        GROUP BY 1 ORDER BY sum(b.total) DESC, 1`,
  );
}

export async function revenueMonthly(
  db: Db,
  s: Scope,
): Promise<{ month: string; revenue: string; bookings: number }[]> {
  return rows(
    db,
    sql`SELECT to_char(m, 'YYYY-MM') AS month, COALESCE(a.revenue, 0)::text AS revenue, COALESCE(a.bookings, 0)::int AS bookings
        FROM generate_series(date_trunc('month', ${s.range.start}::timestamp), ${s.range.end}::timestamp, interval '1 month') AS m
        LEFT JOIN (
          SELECT date_trunc('month', b.created_at AT TIME ZONE ${s.tz}) AS month, sum(b.total) AS revenue, count(*) AS bookings
          FROM rental_bookings b WHERE ${inRange(s)} AND ${REVENUE} GROUP BY 1
        ) a ON a.month = m
        ORDER BY m`,
  );
}

export async function statusCounts(db: Db, s: Scope): Promise<{ status: string; count: number }[]> {
  return rows(
    db,
    sql`SELECT b.status, count(*)::int AS count FROM rental_bookings b WHERE ${inRange(s)} GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
}

export async function kindCounts(db: Db, s: Scope): Promise<{ kind: string; count: number }[]> {
  return rows(
    db,
    sql`SELECT b.kind, count(*)::int AS count FROM rental_bookings b WHERE ${inRange(s)} GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
}

export async function bookingsDaily(
  db: Db,
  s: Scope,
): Promise<{ date: string; bookings: number; cancelled: number }[]> {
  return rows(
    db,
    sql`SELECT d::date::text AS date, COALESCE(a.bookings, 0)::int AS bookings, COALESCE(a.cancelled, 0)::int AS cancelled
        FROM ${days(s)} AS d
        LEFT JOIN (
          SELECT ${localDay(s)} AS day, count(*) AS bookings, count(*) FILTER (WHERE b.status = 'cancelled') AS cancelled
          FROM rental_bookings b WHERE ${inRange(s)} GROUP BY 1
        ) a ON a.day = d::date
        ORDER BY d`,
  );
}

export interface BookingTotals {
  total: number;
  cancelled: number;
  converted: number;
  avg_days: string | null;
  revenue: string;
  revenue_bookings: number;
  cancelled_total: string;
}

export async function bookingTotals(db: Db, s: Scope): Promise<BookingTotals> {
  const r = await one<BookingTotals>(
    db,
    sql`SELECT count(*)::int AS total,
               count(*) FILTER (WHERE b.status = 'cancelled')::int AS cancelled,
               count(*) FILTER (WHERE b.status IN ('confirmed', 'in_progress', 'completed'))::int AS converted,
               avg(b.days)::text AS avg_days,
               COALESCE(sum(b.total) FILTER (WHERE ${REVENUE}), 0)::text AS revenue,
               count(*) FILTER (WHERE ${REVENUE})::int AS revenue_bookings,
               COALESCE(sum(b.total) FILTER (WHERE b.status = 'cancelled'), 0)::text AS cancelled_total
        FROM rental_bookings b WHERE ${inRange(s)}`,
  );
  return r!;
}

export interface TopVehicle {
  vehicle_id: number;
  name: string;
  category: string;
  bookings: number;
  revenue: string;
}

export async function topVehicles(db: Db, s: Scope, limit = 10): Promise<TopVehicle[]> {
  return rows(
    db,
    sql`SELECT v.id::int AS vehicle_id, v.name, COALESCE(v.category, '') AS category, a.bookings::int AS bookings, a.revenue::text AS revenue
        FROM (
          SELECT b.vehicle_id, count(*) AS bookings, COALESCE(sum(b.total) FILTER (WHERE ${REVENUE}), 0) AS revenue
          FROM rental_bookings b WHERE ${inRange(s)} AND b.vehicle_id IS NOT NULL GROUP BY 1
        ) a JOIN rental_vehicles v ON v.id = a.vehicle_id
        ORDER BY a.revenue DESC, a.bookings DESC, v.id LIMIT ${limit}`,
  );
}

export interface OccupancyRow {
  vehicle_id: number;
  name: string;
  /** Unrounded (numeric as text): rounding happens once, on output, so the fleet average does not add up rounding errors. */
  booked_days: string;
}

/**
 * Booked days per vehicle inside the range: overlap of each occupying booking's [pickup, return) with the range,
 * in days (this one figure is keyed on rental time, not on creation).
 */
export async function occupancy(db: Db, s: Scope): Promise<OccupancyRow[]> {
  return rows(
    db,
    sql`SELECT v.id::int AS vehicle_id, v.name, (a.secs / 86400.0)::text AS booked_days
        FROM (
          SELECT b.vehicle_id,
                 sum(GREATEST(0, EXTRACT(EPOCH FROM (LEAST(b.return_at, ${hi(s)}) - GREATEST(b.pickup_at, ${lo(s)}))))) AS secs
          FROM rental_bookings b
          WHERE ${OCCUPYING} AND b.pickup_at < ${hi(s)} AND b.return_at > ${lo(s)} AND b.vehicle_id IS NOT NULL
          GROUP BY 1
        ) a JOIN rental_vehicles v ON v.id = a.vehicle_id
        WHERE a.secs > 0
        ORDER BY a.secs DESC, v.id`,
  );
}

export async function categoryPerformance(
  db: Db,
  s: Scope,
): Promise<{ category: string; vehicles: number; bookings: number; revenue: string }[]> {
  return rows(
    db,
    sql`SELECT COALESCE(NULLIF(v.category, ''), 'uncategorised') AS category, count(DISTINCT v.id)::int AS vehicles,
               COALESCE(sum(a.bookings), 0)::int AS bookings, COALESCE(sum(a.revenue), 0)::text AS revenue
        FROM rental_vehicles v
        LEFT JOIN (
          SELECT b.vehicle_id, count(*) AS bookings, COALESCE(sum(b.total) FILTER (WHERE ${REVENUE}), 0) AS revenue
          FROM rental_bookings b WHERE ${inRange(s)} GROUP BY 1
        ) a ON a.vehicle_id = v.id
        GROUP BY 1 ORDER BY COALESCE(sum(a.revenue), 0) DESC, 1`,
  );
}

export async function fleetCounts(db: Db): Promise<{ total: number; active: number }> {
  const r = await one<{ total: number; active: number }>(
    db,
    sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'active')::int AS active FROM rental_vehicles`,
  );
  return r ?? { total: 0, active: 0 };
}

/** Per customer in the range: bookings, spend, and whether their first booking ever lies in the range. */
const CUSTOMERS_IN_RANGE = (s: Scope) => sql`
  SELECT b.customer_id, count(*) AS bookings, COALESCE(sum(b.total) FILTER (WHERE ${SPENT}), 0) AS spent
  FROM rental_bookings b WHERE ${inRange(s)} AND b.customer_id IS NOT NULL GROUP BY 1`;

const FIRST_BOOKING = sql`(SELECT min(f.created_at) FROM rental_bookings f WHERE f.customer_id = c.customer_id AND f.status <> 'draft')`;

export interface CustomerTotals {
  total: number;
  new_customers: number;
  repeat_customers: number;
  spent: string;
  vip: number;
  regular: number;
  occasional: number;
}

export async function customerTotals(db: Db, s: Scope): Promise<CustomerTotals> {
  const r = await one<CustomerTotals>(
    db,
    sql`SELECT count(*)::int AS total,
               count(*) FILTER (WHERE ${FIRST_BOOKING} >= ${lo(s)})::int AS new_customers,
               count(*) FILTER (WHERE c.bookings >= 2)::int AS repeat_customers,
               COALESCE(sum(c.spent), 0)::text AS spent,
               count(*) FILTER (WHERE c.spent >= 5000)::int AS vip,
               count(*) FILTER (WHERE c.spent >= 1000 AND c.spent < 5000)::int AS regular,
               count(*) FILTER (WHERE c.spent < 1000)::int AS occasional
        FROM (${CUSTOMERS_IN_RANGE(s)}) c`,
  );
  return r!;
}

export async function customerLifecycle(db: Db, s: Scope): Promise<{ date: string; new: number; returning: number }[]> {
  return rows(
    db,
    sql`WITH per_day AS (
          SELECT DISTINCT ${localDay(s)} AS day, b.customer_id FROM rental_bookings b WHERE ${inRange(s)} AND b.customer_id IS NOT NULL
        ), firsts AS (
          SELECT f.customer_id, (min(f.created_at) AT TIME ZONE ${s.tz})::date AS first_day
          FROM rental_bookings f WHERE f.status <> 'draft' AND f.customer_id IN (SELECT customer_id FROM per_day) GROUP BY 1
        ), agg AS (
          SELECT p.day, count(*) FILTER (WHERE f.first_day = p.day) AS new, count(*) FILTER (WHERE f.first_day < p.day) AS returning
          FROM per_day p JOIN firsts f ON f.customer_id = p.customer_id GROUP BY 1
        )
        SELECT d::date::text AS date, COALESCE(agg.new, 0)::int AS new, COALESCE(agg.returning, 0)::int AS returning
        FROM ${days(s)} AS d LEFT JOIN agg ON agg.day = d::date ORDER BY d`,
  );
}

export async function topCustomers(
  db: Db,
  s: Scope,
  limit = 10,
): Promise<{ customer_id: number; name: string; email: string; bookings: number; total_spent: string }[]> {
  return rows(
    db,
    sql`SELECT cu.id::int AS customer_id, cu.name, cu.email, c.bookings::int AS bookings, c.spent::text AS total_spent
        FROM (${CUSTOMERS_IN_RANGE(s)}) c JOIN rental_customers cu ON cu.id = c.customer_id
        ORDER BY c.spent DESC, c.bookings DESC, cu.id LIMIT ${limit}`,
  );
}
