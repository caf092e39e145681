import { Decimal } from '../money.js';
import type { Platform } from '../../../platform/context.js';
import { toDate } from '../../../platform/db/types.js';
import { invalidField, RentalErrors } from '../errors.js';
import { vendorBalances } from '../ledger/balances.js';
import { marketplaceSettings } from '../ledger/settings.js';
import { openPayoutOf } from './repo.js';
import { fromMinor } from '../ledger/money.js';
import { pageOf, type PageRequest } from '../paging.js';
import { addDays, isValidDate, localToUtc, utcToLocal } from '../time.js';
import { bookingStats, dailyIncome, incomeIn, vendorEntries, type EntryFilter } from './summary-repo.js';

export interface SummaryQuery {
  start_date?: string;
  end_date?: string;
  kind?: string;
  entries_from?: string;
  entries_to?: string;
}

function dayCount(a: string, b: string): number {
  return Math.round((Date.parse(b + 'T00:00:00Z') - Date.parse(a + 'T00:00:00Z')) / 86_400_000) + 1;
}

function pct(part: number, whole: number): number {
  return whole === 0 ? 0 : new Decimal(part).mul(100).div(whole).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toNumber();
}

/** GET /ledger/summary (design §8): balances, revenue and growth, occupancy, cancellations, daily series, entries. */
export async function ledgerSummary(p: Platform, vendorId: number, q: SummaryQuery, pg: PageRequest) {
  const tz = p.config.storeTimezone;
  const currency = p.storeCurrency.code;
  const today = utcToLocal(new Date(), tz).date;
  const end = q.end_date ?? today;
  const start = q.start_date ?? addDays(end, -29);
  for (const [f, v] of [
    ['start_date', start],
    ['end_date', end],
    ['entries_from', q.entries_from],
    ['entries_to', q.entries_to],
  ] as const) {
    if (v !== undefined && !isValidDate(v)) throw invalidField(f, `${f} is not a valid date (YYYY-MM-DD).`);
  }
  if (start > end) throw RentalErrors.invalidDateRange('start_date is after end_date.');
  const days = dayCount(start, end);
  if (days > 366) throw RentalErrors.invalidDateRange('The range is at most 366 days.');
  const range = { from: localToUtc(start, '00:00', tz), to: localToUtc(addDays(end, 1), '00:00', tz) };
  const prevStart = addDays(start, -days);
  const prev = { from: localToUtc(prevStart, '00:00', tz), to: range.from };
  const [b, cur, before, daily, stats, settings, open] = await Promise.all([
    vendorBalances(p.db, vendorId),
    incomeIn(p.db, vendorId, range),
    incomeIn(p.db, vendorId, prev),
    dailyIncome(p.db, vendorId, range, tz),
    bookingStats(p.db, vendorId, range),
    marketplaceSettings(p),
    openPayoutOf(p.db, vendorId),
  ]);
  const filter: EntryFilter = {
    kind: q.kind,
    from: q.entries_from ? localToUtc(q.entries_from, '00:00', tz) : undefined,
    to: q.entries_to ? localToUtc(addDays(q.entries_to, 1), '00:00', tz) : undefined,
  };
  const entries = await vendorEntries(p.db, vendorId, filter, pg.limit, pg.offset);
  const m = (n: number) => fromMinor(n, currency);
  const series = [];
  for (let d = start; d <= end; d = addDays(d, 1))
    series.push({ date: d, gross: m(daily.get(d)?.gross ?? 0), net: m(daily.get(d)?.net ?? 0) });
  return {
    vendor_id: vendorId,
    currency,
    start_date: start,
    end_date: end,
    balances: {
      available: m(b.available),
      pending: m(b.pending),
      on_hold: m(b.on_hold),
      total_earned: m(b.total_earned),
      total_paid_out: m(b.total_paid_out),
      penalties: m(b.penalties),
      owed: m(b.owed),
    },
    revenue: {
      gross: m(cur.gross),
      net: m(cur.net),
      previous_gross: m(before.gross),
      growth_pct: before.gross === 0 ? (cur.gross > 0 ? 100 : 0) : pct(cur.gross - before.gross, before.gross),
    },
    payouts: {
      min_payout: settings.min_payout,
      payout_freeze: settings.payout_freeze,
      open_payout_id: open ? Number(open.id) : null,
      open_payout_no: open ? Number(open.statement_no) : null,
    },
    completed_bookings: cur.completed,
    occupancy_pct: Math.min(100, pct(stats.bookedDays, stats.vehicles * days)),
    cancellation_rate_pct: pct(stats.cancelled, stats.total),
    daily: series,
    entries: pageOf(
      entries.items.map((e) => ({
        id: Number(e.id),
        transaction_id: Number(e.transaction_id),
        kind: e.kind,
        account: e.account.split(':').slice(2).join(':'),
        amount: m(Number(e.amount)),
        reference: e.reference,
        created_at: toDate(e.created_at).toISOString(),
      })),
      entries.total,
      pg,
    ),
  };
}
