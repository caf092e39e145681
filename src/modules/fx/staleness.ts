import { SNAPSHOT } from './rates/snapshot.js';
import type { CurrencyRow } from './types.js';

/** The bundled snapshot's own date (unix seconds): rates taken from the file carry it, never "now". */
export const SNAPSHOT_TIME = Date.parse(`${SNAPSHOT.date}T00:00:00Z`) / 1000;
export const SNAPSHOT_DATE = SNAPSHOT.date;

/** An automatic rate older than this is stale (covers a missed daily sync and a weekend without ECB rates). */
export const STALE_AFTER_S = 72 * 3600;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The day a row's rate is from (UTC, YYYY-MM-DD), or null when it was never set. */
export function rateDate(row: CurrencyRow): string | null {
  return row.rate.updated_at === null ? null : new Date(row.rate.updated_at * 1000).toISOString().slice(0, 10);
}

/** Automatic rates that were never fetched or are older than STALE_AFTER_S; manual rates are the admin's choice. */
export function isStale(row: CurrencyRow, now = nowSeconds()): boolean {
  if (row.rate.type !== 'auto') return false;
  return row.rate.updated_at === null || now - row.rate.updated_at > STALE_AFTER_S;
}

export interface StaleRate {
  code: string;
  rate_date: string | null;
}

/** The enabled currencies whose automatic rate is stale. */
export function staleRates(rows: readonly CurrencyRow[], now = nowSeconds()): StaleRate[] {
  return rows.filter((r) => r.enabled && isStale(r, now)).map((r) => ({ code: r.code, rate_date: rateDate(r) }));
}
