import { Value } from '@sinclair/typebox/value';
import { RentalErrors } from '../errors.js';
import { isYmd } from '../shared/dates.js';
import { FORMATS, type ExportFormat } from './encode.js';
import { EXPORT_TYPES, exportType } from './registry.js';
import type { ExportFilter, ExportType } from './type.js';

export interface ExportRequest {
  type: ExportType;
  filter: ExportFilter;
  /** The filters as given (kept in the history entry). */
  filters: Record<string, unknown>;
}

/** Parameters every type understands; anything else must be one of the chosen type's own filters. */
const COMMON = new Set(['type', 'format', 'date_from', 'date_to', 'status', '_wpnonce']);

const invalid = (param: string, message: string) =>
  RentalErrors.invalidParams(message, { params: { [param]: message } });

/**
 * Validates `{type, date_from?, date_to?, status?, …type filters}` (the same rules for HTTP and the CLI):
 * unknown type, malformed or impossible dates, a status the type does not have, an unknown or malformed
 * filter → 400 INVALID_PARAMS; date_from after date_to → 400 INVALID_DATE_RANGE.
 */
export function parseExportRequest(input: unknown, timeZone: string): ExportRequest {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw RentalErrors.invalidParams('The request body must be a JSON object.');
  const q = input as Record<string, unknown>;
  const names = EXPORT_TYPES.map((t) => t.name);
  if (q.type === undefined) throw invalid('type', `type is required: one of ${names.join(', ')}.`);
  const type = typeof q.type === 'string' ? exportType(q.type) : undefined;
  if (!type) throw invalid('type', `Unknown export type: expected one of ${names.join(', ')}.`);

  for (const name of ['date_from', 'date_to'] as const) {
    const v = q[name];
    if (v !== undefined && (typeof v !== 'string' || !isYmd(v)))
      throw invalid(name, `${name} must be a real date written YYYY-MM-DD.`);
  }
  const from = (q.date_from as string | undefined) ?? null;
  const to = (q.date_to as string | undefined) ?? null;
  if (from && to && from > to)
    throw RentalErrors.invalidDateRange('date_from must not be after date_to.', { date_from: from, date_to: to });

  let status: string | null = null;
  if (q.status !== undefined) {
    if (!type.status) throw invalid('status', `Type ${type.name} has no status filter.`);
    if (typeof q.status !== 'string' || !type.status.values.includes(q.status)) {
      throw invalid('status', `status of ${type.name} must be one of ${type.status.values.join(', ')}.`);
    }
    status = q.status;
  }

  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) {
    if (COMMON.has(k) || v === undefined) continue;
    const def = type.filters?.[k];
    if (!def) {
      const known = Object.keys(type.filters ?? {});
      throw invalid(
        k,
        `Unknown parameter ${k} for type ${type.name}${known.length ? ` (its filters: ${known.join(', ')})` : ''}.`,
      );
    }
    if (!Value.Check(def.schema, v)) throw invalid(k, `${k} has an invalid value for type ${type.name}.`);
    extra[k] = v;
  }

  const filters: Record<string, unknown> = { ...extra };
  if (from) filters.date_from = from;
  if (to) filters.date_to = to;
  if (status) filters.status = status;
  return { type, filter: { from, to, timeZone, status, extra }, filters };
}

export function parseFormat(v: unknown): ExportFormat {
  if (typeof v === 'string' && (FORMATS as readonly string[]).includes(v)) return v as ExportFormat;
  throw invalid('format', `format must be one of ${FORMATS.join(', ')}.`);
}

/** `bookings-2026-01-01_2026-12-31.csv`; open ends use the export day (`…_2026-11-23`, `…-until-2026-12-31`). */
export function fileName(type: ExportType, f: ExportFilter, today: string, extension: string): string {
  let range: string;
  if (f.from) range = `${f.from}_${f.to ?? today}`;
  else if (f.to) range = `until-${f.to}`;
  else range = today;
  return `${type.name}-${range}.${extension}`;
}
