import { sql, type SQL } from 'drizzle-orm';

/** A column value for raw SQL: objects and arrays go in as jsonb. */
function value(v: unknown): SQL {
  if (v !== null && typeof v === 'object') return sql`${JSON.stringify(v)}::jsonb`;
  return sql`${v}`;
}

/** Ids as one `bigint[]` parameter's text (`= ANY($n::bigint[])`, `unnest`), each once. */
export function bigintArray(ids: readonly number[]): string {
  return `{${[...new Set(ids.map((i) => Math.trunc(i)))].join(',')}}`;
}

/** `INSERT` column list and values from an object (undefined fields are skipped). */
export function insertParts(fields: Record<string, unknown>): { cols: SQL; vals: SQL } {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return {
    cols: sql.join(
      entries.map(([k]) => sql.identifier(k)),
      sql`, `,
    ),
    vals: sql.join(
      entries.map(([, v]) => value(v)),
      sql`, `,
    ),
  };
}

/**
 * Columns and `(…), (…)` value rows of a multi-row INSERT; every row names the same fields (a bulk seed builds them
 * from one literal), so a row that differs is a programming error.
 */
export function insertManyParts(rows: readonly Record<string, unknown>[]): { cols: SQL; vals: SQL } {
  const keys = Object.keys(rows[0] ?? {});
  for (const r of rows)
    if (Object.keys(r).join() !== keys.join()) throw new Error('insertManyParts: rows must name the same fields');
  return {
    cols: sql.join(
      keys.map((k) => sql.identifier(k)),
      sql`, `,
    ),
    vals: sql.join(
      rows.map(
        (r) =>
          sql`(${sql.join(
            keys.map((k) => value(r[k] ?? null)),
            sql`, `,
          )})`,
      ),
      sql`, `,
    ),
  };
}

/** `SET a = …, b = …, updated_at = now()` from an object (undefined fields are skipped). */
export function setClause(fields: Record<string, unknown>): SQL {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return sql.join(
    [...entries.map(([k, v]) => sql`${sql.identifier(k)} = ${value(v)}`), sql`updated_at = now()`],
    sql`, `,
  );
}

export function whereAll(conds: SQL[]): SQL {
  return conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
}
