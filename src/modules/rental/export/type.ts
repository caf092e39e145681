import { sql, type SQL } from 'drizzle-orm';
import type { TSchema } from '@sinclair/typebox';
import type { Capability } from '../../../platform/auth/roles.js';

/**
 * How a column is written. JSON/NDJSON get the value as shown; CSV writes numbers bare, booleans as
 * true/false, null as an empty field and `json` values as their JSON text.
 * - `integer`, `number`: JSON numbers; `money`: a JSON number with ≤ 2 decimals, rounded in decimal arithmetic
 * - `instant`: ISO-8601 UTC (`2026-01-02T03:04:05.000Z`); `date`: `YYYY-MM-DD` of the instant in the store time zone
 * - `string`, `boolean`, `json` (arrays/objects)
 */
export type ColumnKind = 'integer' | 'number' | 'money' | 'string' | 'boolean' | 'instant' | 'date' | 'json';

export interface ExportColumn {
  key: string;
  kind: ColumnKind;
  /** The SQL expression (for `date`: the instant whose store-local date is written). */
  expr: SQL;
  description: string;
  nullable?: boolean;
}

/** Filters of one run, after validation. `from`/`to`: YYYY-MM-DD in `timeZone`, both inclusive. */
export interface ExportFilter {
  from: string | null;
  to: string | null;
  timeZone: string;
  status: string | null;
  /** The type's own filters (validated against its `filters` schemas). */
  extra: Record<string, unknown>;
}

/**
 * One exportable type: its columns, the table (and joins) it reads, and its filters. Rows are read in
 * pages of ascending `id` (keyset paging: `id > last`), so memory stays flat whatever the size.
 * Adding a type = one file calling `defineExportType` + one line in registry.ts.
 */
export interface ExportTypeSpec {
  name: string;
  title: string;
  /** What one row is and which date the date range filters on (shown in OpenAPI and the CLI help). */
  description: string;
  /** Capability needed to export it (least privilege; personal data → manage_options). */
  cap: Capability;
  /** FROM clause: the base table and the joins filters need (also used for counting). */
  from: SQL;
  /** Joins only the columns need (e.g. lateral aggregates): added to page queries, not to counts. */
  joins?: SQL;
  /** The keyset column: a unique, ascending integer (the primary key). */
  id: SQL;
  /** The instant the `date_from`/`date_to` range applies to. */
  date: SQL;
  /** The column `status` filters on and its values; null = the type has no status filter (→ 400 if given). */
  status: { expr: SQL; values: readonly string[] } | null;
  /** Always-on conditions (e.g. transfers are bookings with kind = 'transfer'). */
  base?: SQL[];
  /** Extra filters: name → schema (documented in OpenAPI) and the SQL condition for a given value. */
  filters?: Record<string, { schema: TSchema; where: (value: unknown) => SQL }>;
  columns: ExportColumn[];
}

export type ExportType = Readonly<ExportTypeSpec>;

export function defineExportType(spec: ExportTypeSpec): ExportType {
  const keys = new Set<string>();
  for (const c of spec.columns) {
    if (keys.has(c.key)) throw new Error(`export type ${spec.name}: duplicate column ${c.key}`);
    keys.add(c.key);
  }
  return Object.freeze(spec);
}

/** Column shorthand: `col('total', 'money', sql\`b.total\`, 'Total incl. tax')`. */
export function col(key: string, kind: ColumnKind, expr: SQL, description: string, nullable = false): ExportColumn {
  return { key, kind, expr, description, nullable };
}

/** WHERE conditions of a run (without the keyset condition). */
export function conditions(t: ExportType, f: ExportFilter): SQL[] {
  const out: SQL[] = [...(t.base ?? [])];
  // Local midnight → instant in PostgreSQL (exact across DST changes and for any year).
  if (f.from) out.push(sql`${t.date} >= (${f.from}::date::timestamp AT TIME ZONE ${f.timeZone})`);
  if (f.to) out.push(sql`${t.date} < ((${f.to}::date + 1)::timestamp AT TIME ZONE ${f.timeZone})`);
  if (f.status !== null && t.status) out.push(sql`${t.status.expr} = ${f.status}`);
  for (const [name, value] of Object.entries(f.extra)) {
    const def = t.filters?.[name];
    if (def) out.push(def.where(value));
  }
  return out;
}
