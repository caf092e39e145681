import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../src/platform/db/types.js';

/**
 * The query planner's row count (`reltuples`: -1 until the table is analyzed) beside the real count, for the bookings
 * and vehicles tables, in that order.
 */
export async function plannerCounts(db: Db): Promise<{ relname: string; planned: number; actual: number }[]> {
  return rows(
    db,
    sql`SELECT c.relname, c.reltuples::float8 AS planned,
        (CASE c.relname WHEN 'rental_bookings' THEN (SELECT count(*) FROM rental_bookings)
          ELSE (SELECT count(*) FROM rental_vehicles) END)::int AS actual
      FROM pg_class c WHERE c.relname IN ('rental_bookings', 'rental_vehicles') AND c.relkind = 'r' ORDER BY c.relname`,
  );
}
