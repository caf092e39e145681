// Earnings by month from the ledger summary's daily series (dates are store-local calendar days).

/** The last 12 calendar months up to today (YYYY-MM-DD in the store's zone): the 1st of the month 11 months back → today. */
export function lastTwelveMonths(today: string): { start_date: string; end_date: string } {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const back = y * 12 + (m - 1) - 11;
  const start = `${Math.floor(back / 12)}-${String((back % 12) + 1).padStart(2, '0')}-01`;
  return { start_date: start, end_date: today };
}

/**
 * Sums the daily net and gross per month (YYYY-MM), every month of the window present (0 when nothing), oldest
 * first. Sums in minor units (integers), so 0.1 + 0.2 stays 0.3.
 */
export function earningsByMonth(
  daily: readonly { date: string; gross: number; net: number }[],
  digits = 2,
): { month: string; gross: number; net: number }[] {
  const f = 10 ** digits;
  const months = new Map<string, { gross: number; net: number }>();
  for (const d of daily) {
    const k = d.date.slice(0, 7);
    const cur = months.get(k) ?? { gross: 0, net: 0 };
    cur.gross += Math.round(d.gross * f);
    cur.net += Math.round(d.net * f);
    months.set(k, cur);
  }
  return [...months.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([month, v]) => ({ month, gross: v.gross / f, net: v.net / f }));
}

/** "Jan 2026" for "2026-01" (in the browser's locale; the month is a calendar month, formatted in UTC). */
export function monthLabel(month: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}
