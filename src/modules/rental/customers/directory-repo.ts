import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import type { SortKey } from './directory-schemas.js';
import { containsPattern as likePattern } from '../shared/like.js';

export interface CustomerRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  address: string;
  user_id: number | null;
  created_at: string;
  bookings_count: number;
  total_spent: string;
  first_booking: string | null;
  last_booking: string | null;
}

const STATS = sql`
  SELECT b.customer_id,
         count(*) AS bookings,
         COALESCE(sum(b.total) FILTER (WHERE b.status IN ('confirmed', 'in_progress', 'completed')), 0) AS spent,
         min(b.created_at) AS first_booking, max(b.created_at) AS last_booking
  FROM rental_bookings b WHERE b.status <> 'draft' AND b.customer_id IS NOT NULL`;

const SELECT = sql`
  SELECT c.id::int AS id, c.name, c.email, c.phone, c.address, c.user_id::int AS user_id, c.created_at::text AS created_at,
         COALESCE(s.bookings, 0)::int AS bookings_count, COALESCE(s.spent, 0)::text AS total_spent,
         s.first_booking::text AS first_booking, s.last_booking::text AS last_booking
  FROM rental_customers c`;

const ORDER: Record<SortKey, SQL> = {
  name: sql`lower(c.name)`,
  email: sql`lower(c.email)`,
  bookings: sql`COALESCE(s.bookings, 0)`,
  total_spent: sql`COALESCE(s.spent, 0)`,
  last_booking: sql`s.last_booking`,
  created: sql`c.created_at`,
  date: sql`c.created_at`,
};

export async function listCustomers(
  db: Db,
  q: { search?: string; sortBy: SortKey; desc: boolean; limit: number; offset: number },
): Promise<{ items: CustomerRow[]; total: number }> {
  const term = q.search?.trim() ?? '';
  const where =
    term === '' ? sql`true` : sql`(c.name ILIKE ${likePattern(term)} OR c.email ILIKE ${likePattern(term)})`;
  const total =
    (await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rental_customers c WHERE ${where}`))?.n ?? 0;
  const dir = q.desc ? sql`DESC` : sql`ASC`;
  // Only the customers of the page need stats when sorting by a customer column.
  const byStat = q.sortBy === 'bookings' || q.sortBy === 'total_spent' || q.sortBy === 'last_booking';
  const items = byStat
    ? await rows<CustomerRow>(
        db,
        sql`${SELECT} LEFT JOIN (${STATS} GROUP BY b.customer_id) s ON s.customer_id = c.id
            WHERE ${where} ORDER BY ${ORDER[q.sortBy]} ${dir} NULLS LAST, c.id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`,
      )
    : await rows<CustomerRow>(
        db,
        sql`WITH page AS (SELECT c.* FROM rental_customers c WHERE ${where} ORDER BY ${ORDER[q.sortBy]} ${dir}, c.id ${dir} LIMIT ${q.limit} OFFSET ${q.offset})
            SELECT c.id::int AS id, c.name, c.email, c.phone, c.address, c.user_id::int AS user_id, c.created_at::text AS created_at,
                   COALESCE(s.bookings, 0)::int AS bookings_count, COALESCE(s.spent, 0)::text AS total_spent,
                   s.first_booking::text AS first_booking, s.last_booking::text AS last_booking
            FROM page c LEFT JOIN LATERAL (${STATS} AND b.customer_id = c.id GROUP BY b.customer_id) s ON true
            ORDER BY ${ORDER[q.sortBy]} ${dir}, c.id ${dir}`,
      );
  return { items, total };
}

export async function getCustomer(db: Db, id: number): Promise<CustomerRow | undefined> {
  return one<CustomerRow>(
    db,
    sql`${SELECT} LEFT JOIN LATERAL (${STATS} AND b.customer_id = c.id GROUP BY b.customer_id) s ON true WHERE c.id = ${id}`,
  );
}

export interface CustomerBookingRow {
  id: number;
  reference: string;
  vehicle_id: number;
  vehicle_name: string;
  status: string;
  pickup_at: string;
  return_at: string;
  total: string;
  currency: string;
  created_at: string;
}

export async function recentBookingsOf(db: Db, customerId: number, limit = 10): Promise<CustomerBookingRow[]> {
  return rows(
    db,
    sql`SELECT b.id::int AS id, b.reference, b.vehicle_id::int AS vehicle_id, COALESCE(v.name, '') AS vehicle_name, b.status,
               b.pickup_at::text AS pickup_at, b.return_at::text AS return_at, b.total::text AS total, b.currency, b.created_at::text AS created_at
        FROM rental_bookings b LEFT JOIN rental_vehicles v ON v.id = b.vehicle_id
        WHERE b.customer_id = ${customerId} AND b.status <> 'draft'
        ORDER BY b.created_at DESC, b.id DESC LIMIT ${limit}`,
  );
}

export async function threadCountOf(db: Db, customerId: number): Promise<number> {
  return (
    (
      await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM rental_messages WHERE customer_id = ${customerId} AND parent_id IS NULL`,
      )
    )?.n ?? 0
  );
}

const idList = (ids: number[]) =>
  sql.join(
    ids.map((i) => sql`${i}`),
    sql`, `,
  );

/** Locks and returns the ids among `ids` that exist. */
export async function lockExisting(db: Db, ids: number[]): Promise<number[]> {
  const r = await rows<{ id: number }>(
    db,
    sql`SELECT id::int AS id FROM rental_customers WHERE id IN (${idList(ids)}) ORDER BY id FOR UPDATE`,
  );
  return r.map((x) => x.id);
}

export const DELETED_NAME = 'Deleted customer';

/** Keeps the bookings (amounts untouched) but removes who made them. */
export async function anonymiseBookings(db: Db, ids: number[]): Promise<number> {
  const r = await rows<{ id: number }>(
    db,
    sql`UPDATE rental_bookings SET customer_id = NULL, customer_name = ${DELETED_NAME}, customer_email = '', customer_phone = '', updated_at = now()
        WHERE customer_id IN (${idList(ids)}) RETURNING id::int AS id`,
  );
  return r.length;
}

export async function anonymiseMessages(db: Db, ids: number[]): Promise<void> {
  await db.execute(
    sql`UPDATE rental_messages SET customer_id = NULL, customer_name = ${DELETED_NAME}, customer_email = '', updated_at = now()
        WHERE customer_id IN (${idList(ids)})`,
  );
}

export async function deleteCustomers(db: Db, ids: number[]): Promise<number[]> {
  const r = await rows<{ id: number }>(
    db,
    sql`DELETE FROM rental_customers WHERE id IN (${idList(ids)}) RETURNING id::int AS id`,
  );
  return r.map((x) => x.id).sort((a, b) => a - b);
}
