import { stringify } from 'csv-stringify/sync';
import { decimalText } from '../ledger/money.js';
import type { PayoutStatementData } from './lines.js';

export const STATEMENT_CSV_COLUMNS = [
  'line',
  'date',
  'type',
  'description',
  'booking_reference',
  'booking_start',
  'booking_end',
  'gross',
  'commission',
  'penalty',
  'net',
  'balance',
  'currency',
  'transaction_id',
] as const;

const noFormula = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** An instant's date in the store's time zone (YYYY-MM-DD). */
export function storeDate(isoInstant: string, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(isoInstant));
}

/**
 * The statement's lines as CSV (RFC 4180, CRLF, UTF-8 BOM), framed by an opening_balance and a closing_balance row:
 * money as exact decimal text in the currency's unit, dates in the store's time zone. The same lines as the PDF.
 */
export function statementCsv(s: PayoutStatementData, timezone: string): string {
  const c = s.payout.currency;
  const money = (minor: number) => decimalText(minor, c);
  const date = (at: string | null) => (at === null ? '' : storeDate(at, timezone));
  const frame = (type: string, description: string, at: string | null, balance: number) => [
    '',
    date(at),
    type,
    description,
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    money(balance),
    c,
    '',
  ];
  const records = [
    [...STATEMENT_CSV_COLUMNS],
    frame('opening_balance', 'Opening balance', s.period_start, s.opening),
    ...s.lines.map((l, i) => [
      String(i + 1),
      date(l.at),
      l.type,
      noFormula(l.description),
      noFormula(l.booking_reference ?? ''),
      date(l.booking_start),
      date(l.booking_end),
      money(l.gross),
      money(l.commission),
      money(l.penalty),
      money(l.net),
      money(l.balance),
      c,
      String(l.transaction_id),
    ]),
    frame('closing_balance', 'Closing balance', s.period_end, s.closing),
  ];
  // csv-stringify's escape_formulas would make a negative amount ("-12.30") text in a spreadsheet: only the text
  // columns are escaped (an imported booking reference could start with "=")
  return '\ufeff' + stringify(records, { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}
