import { stringify } from 'csv-stringify/sync';
import type { OutRow } from './values.js';

export const FORMATS = ['csv', 'json', 'ndjson'] as const;
export type ExportFormat = (typeof FORMATS)[number];

/** Turns rows into text, page by page: head once, then each page of rows, then the tail. */
export interface Encoder {
  contentType: string;
  extension: string;
  head(keys: readonly string[]): string;
  rows(keys: readonly string[], page: readonly OutRow[], first: boolean): string;
  tail(records: number): string;
}

/**
 * RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes doubled. A UTF-8 BOM
 * first so spreadsheet programs read the text as UTF-8. Text starting with = + - @ TAB CR gets a leading
 * apostrophe (OWASP "CSV injection"); numbers (−5) stay numbers.
 */
const CSV_OPTIONS = {
  record_delimiter: 'windows',
  // A lone LF or CR is not the record delimiter, so csv-stringify would leave it unquoted: quote any line break.
  quoted_match: /[\r\n]/,
  escape_formulas: true,
  cast: {
    boolean: (v: boolean) => (v ? 'true' : 'false'),
    object: (v: object) => JSON.stringify(v),
  },
} as const;

const csv: Encoder = {
  contentType: 'text/csv; charset=utf-8',
  extension: 'csv',
  head: (keys) => '\ufeff' + stringify([keys as string[]], CSV_OPTIONS),
  rows: (keys, page) =>
    stringify(
      page.map((r) => keys.map((k) => r[k])),
      CSV_OPTIONS,
    ),
  tail: () => '',
};

/** One JSON array, one row per line, written as the rows arrive. */
const json: Encoder = {
  contentType: 'application/json; charset=utf-8',
  extension: 'json',
  head: () => '[',
  rows: (_keys, page, first) => page.map((r, i) => (first && i === 0 ? '\n' : ',\n') + JSON.stringify(r)).join(''),
  tail: (records) => (records > 0 ? '\n]\n' : ']\n'),
};

/** Newline-delimited JSON: one object per line. */
const ndjson: Encoder = {
  contentType: 'application/x-ndjson; charset=utf-8',
  extension: 'ndjson',
  head: () => '',
  rows: (_keys, page) => page.map((r) => JSON.stringify(r) + '\n').join(''),
  tail: () => '',
};

export const ENCODERS: Readonly<Record<ExportFormat, Encoder>> = { csv, json, ndjson };
