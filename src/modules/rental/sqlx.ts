import { sql, type SQL } from 'drizzle-orm';

/** A column value for raw SQL: objects and arrays go in as jsonb. */
function value(v: unknown): SQL {
  if (v !== null && typeof v === 'object') return sql`${JSON.stringify(v)}::jsonb`;
  return sql`${v}`;
}

/** `INSERT` column list and values from an object (undefined fields are skipped). */
export function insertParts(fields: Record<string, unknown>): { cols: SQL; vals: SQL } {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return {
    cols: sql.join(entries.map(([k]) => sql.identifier(k)), sql`, `),
    vals: sql.join(entries.map(([, v]) => value(v)), sql`, `),
  };
}

/** `SET a = …, b = …, updated_at = now()` from an object (undefined fields are skipped). */
export function setClause(fields: Record<string, unknown>): SQL {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return sql.join([...entries.map(([k, v]) => sql`${sql.identifier(k)} = ${value(v)}`), sql`updated_at = now()`], sql`, `);
}

export function whereAll(conds: SQL[]): SQL {
  return conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
}
