import { sql, type SQL } from 'drizzle-orm';

/**
 * A statement written as text with numbered parameters, for the few hot statements whose Drizzle tree cost more to
 * walk on every call than the database took to run them (the booking's one statement: ~130 µs of its ~1.2 ms). The
 * text comes from the repository's own constants; only values become parameters.
 */
export class StatementText {
  readonly params: unknown[] = [];

  /** The placeholder of a value; an object or array is sent as JSON and cast to jsonb, as the repositories do. */
  param(v: unknown): string {
    if (v !== null && typeof v === 'object') {
      this.params.push(JSON.stringify(v));
      return `$${this.params.length}::jsonb`;
    }
    this.params.push(v === undefined ? null : v);
    return `$${this.params.length}`;
  }
}

/** A quoted identifier (a column name from the repository's own field list). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The same statement as a Drizzle SQL (for the driver paths that take one): text and parameters, in order. */
export function asSql(text: string, params: readonly unknown[]): SQL {
  const parts: SQL[] = [];
  let at = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    parts.push(sql.raw(text.slice(at, m.index)), sql`${params[Number(m[1]) - 1]}`);
    at = m.index! + m[0].length;
  }
  parts.push(sql.raw(text.slice(at)));
  return sql.join(parts, sql``);
}
