import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';

/** A Drizzle database or transaction on either driver (PGlite or node-postgres). */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Runs raw SQL (a drizzle `sql` template) and returns the rows, on either driver. */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

export async function one<T>(db: Db, query: SQL): Promise<T | undefined> {
  const r = await rows<T>(db, query);
  return r[0];
}

/**
 * Timestamps come back from raw queries as PostgreSQL text ("2026-01-02 03:04:05.678+00") on both drivers
 * (Drizzle keeps them unparsed); this turns them (or a Date) into a Date.
 */
export function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v !== 'string') throw new TypeError(`not a timestamp: ${String(v)}`);
  let s = v.trim().replace(' ', 'T');
  s = s.replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw new TypeError(`not a timestamp: ${v}`);
  return d;
}

export function toDateOrNull(v: unknown): Date | null {
  return v === null || v === undefined ? null : toDate(v);
}
