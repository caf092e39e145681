import { EXPORT_TYPES } from './registry.js';
import type { ExportType } from './type.js';

const KIND_DOC: Record<string, string> = {
  integer: 'integer',
  number: 'number',
  money: 'money (number, 2 dp)',
  string: 'text',
  boolean: 'true/false',
  instant: 'ISO-8601 UTC',
  date: 'YYYY-MM-DD (store tz)',
  json: 'JSON',
};

/** A type's columns as a Markdown table (OpenAPI description; docs/integrators/rental-export.md has the same). */
export function columnsTable(t: ExportType): string {
  const lines = ['| column | kind | meaning |', '|---|---|---|'];
  for (const c of t.columns)
    lines.push(`| \`${c.key}\` | ${KIND_DOC[c.kind]}${c.nullable ? ', nullable' : ''} | ${c.description} |`);
  return lines.join('\n');
}

function filtersLine(t: ExportType): string {
  const own = Object.keys(t.filters ?? {});
  const status = t.status ? `status (${t.status.values.join(', ')})` : 'no status';
  return `Filters: date_from/date_to, ${status}${own.length ? ', ' + own.join(', ') : ''}. Capability: ${t.cap}.`;
}

/** The export route's description: formats, then every type with its filters and columns. */
export function exportDescription(): string {
  const parts = [
    'Streams the file (keyset paging: memory stays flat whatever the size) with `Content-Disposition: attachment; ' +
      'filename="<type>-<date_from>_<date_to>.<ext>"` and `X-Rova-Export-Id` (its history entry). Formats: `csv` (RFC 4180, CRLF, ' +
      "UTF-8 BOM; text starting with = + - @ TAB CR is prefixed with ' against formula injection; numbers stay numbers), " +
      '`json` (one array) and `ndjson` (one object per line). Money as numbers (decimal-correct), instants ISO-8601 UTC, dates in ' +
      'the store time zone. Rows in ascending id. A failure after the first byte aborts the transfer (the file is then ' +
      'incomplete: no closing chunk) and is recorded as `failed` in the history. Every export route needs manage_options (spec §5): ' +
      'shop managers and other roles → 403.',
  ];
  for (const t of EXPORT_TYPES) parts.push(`### ${t.name}\n\n${t.description} ${filtersLine(t)}\n\n${columnsTable(t)}`);
  return parts.join('\n\n');
}
