import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { conditions, type ExportColumn, type ExportFilter, type ExportType } from './type.js';

/** A raw row: column key → driver value (numeric/timestamps as text), plus the keyset cursor `__id`. */
export type RawRow = Record<string, unknown> & { __id: number };

/**
 * Values are finished in SQL where that is exact and cheaper than in JavaScript: money rounded to cents in
 * `numeric` (half away from zero) and sent as text, instants as ISO-8601 UTC text, dates in the store time zone.
 */
function selectExpr(c: ExportColumn, timeZone: string): SQL {
  switch (c.kind) {
    case 'money':
      return sql`round((${c.expr})::numeric, 2)::text`;
    case 'number':
      return sql`(${c.expr})::text`;
    case 'instant':
      return sql`to_char((${c.expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'date':
      return sql`to_char((${c.expr}) AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;
    case 'integer':
      return sql`(${c.expr})::int8`;
    default:
      return c.expr;
  }
}

function where(conds: SQL[]): SQL {
  return conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
}

/** The next page of rows after the cursor (ascending id). */
export async function exportPage(
  db: Db,
  t: ExportType,
  f: ExportFilter,
  after: number | null,
  limit: number,
): Promise<RawRow[]> {
  const conds = conditions(t, f);
  if (after !== null) conds.push(sql`${t.id} > ${after}`);
  const cols = sql.join(
    t.columns.map((c) => sql`${selectExpr(c, f.timeZone)} AS ${sql.identifier(c.key)}`),
    sql`, `,
  );
  const query = sql`SELECT (${t.id})::int8 AS "__id", ${cols} FROM ${t.from} ${t.joins ?? sql``} ${where(conds)} ORDER BY ${t.id} LIMIT ${limit}`;
  const r = await db.transaction(async (tx) => {
    // A page must walk the primary key from the cursor. With stale statistics (PGlite runs no autovacuum; a bulk
    // load leaves them behind) the planner would otherwise scan and sort the whole table for every page.
    await tx.execute(sql`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true)`);
    return rows<RawRow>(tx as unknown as Db, query);
  });
  for (const row of r) row.__id = Number(row.__id);
  return r;
}

export async function exportCount(db: Db, t: ExportType, f: ExportFilter): Promise<number> {
  const r = await one<{ n: number | string }>(
    db,
    sql`SELECT count(*)::int8 AS n FROM ${t.from} ${where(conditions(t, f))}`,
  );
  return Number(r?.n ?? 0);
}
