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
  // PostgreSQL's own output, parsed by hand: this runs for every interval the holding index reloads
  const m = PG_TIMESTAMP.exec(v);
  if (m) {
    const [y, mo, d, h, mi, se] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
    const local = Date.UTC(y, mo - 1, d, h, mi, se, m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000 + 1e-6) : 0);
    // a field out of range (month 13, 31 June) is left to the general parse below, which refuses it
    if (
      y >= 1000 &&
      mo >= 1 &&
      mo <= 12 &&
      h < 24 &&
      mi < 60 &&
      se < 60 &&
      d >= 1 &&
      (d <= 28 || new Date(local).getUTCDate() === d)
    ) {
      const offset = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10] ?? 0)) : 0;
      return new Date(local - offset * 60_000);
    }
  }
  let s = v.trim().replace(' ', 'T');
  s = s.replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw new TypeError(`not a timestamp: ${v}`);
  return d;
}

const PG_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::?(\d{2}))?|Z)$/;

export function toDateOrNull(v: unknown): Date | null {
  return v === null || v === undefined ? null : toDate(v);
}
