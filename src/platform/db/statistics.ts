import { sql } from 'drizzle-orm';
import type { Db } from './types.js';

/**
 * Gives the query planner row counts and value distributions for what a bulk write just added (a demo seed, bulk
 * bookings, a WordPress import). PostgreSQL's autovacuum would analyze the tables some minutes later; PGlite has no
 * autovacuum at all, so until this runs its planner takes every table for empty and the first availability and
 * report queries over thousands of rows pick sequential scans and nested loops. ANALYZE samples a bounded number of
 * rows per table, so it stays quick on a large database; tables the role does not own are skipped with a warning.
 */
export async function refreshPlannerStatistics(db: Db): Promise<void> {
  await db.execute(sql`ANALYZE`);
}
