import type { RawRow } from './repo.js';
import type { ExportColumn, ExportType } from './type.js';

export type Cell = string | number | boolean | null | unknown[] | Record<string, unknown>;
export type OutRow = Record<string, Cell>;

/** One database value → the exported value of its column kind (see ColumnKind). */
export function cell(c: ExportColumn, v: unknown): Cell {
  if (v === null || v === undefined) return null;
  switch (c.kind) {
    case 'integer':
    case 'number':
      return Number(v);
    case 'money':
      // cents as text from SQL; below 10^13 that is ≤ 15 significant digits, so the number prints the same digits
      return Number(v);
    case 'instant':
      return String(v);
    case 'boolean':
      return v === true || v === 't' || v === 'true';
    case 'json':
      return typeof v === 'string' ? (JSON.parse(v) as Cell) : (v as Cell);
    default:
      return String(v);
  }
}

/** A raw row → the exported row (an allow-list: only the type's columns, in order). */
export function outRow(t: ExportType, r: RawRow): OutRow {
  const o: OutRow = {};
  for (const c of t.columns) o[c.key] = cell(c, r[c.key]);
  return o;
}
