import type { CacheSize } from '../../../../platform/cache-sizes.js';
import { priceOrThrow, type Period } from '../service.js';
import type { CatalogueSnapshot } from '../../catalogue.js';
import type { VehicleRow } from '../../vehicles/repo.js';

const MAX_WINDOWS = 4096;
/** Totals kept per snapshot at most (all windows together): past either bound the memo starts again. */
const MAX_TOTALS = 200_000;
/** Estimated bytes of a kept total (a Map entry of two numbers) and of a window (its key and Map). */
const TOTAL_BYTES = 40;
const WINDOW_BYTES = 160;

/**
 * Rental totals per (pickup date, days) for one catalogue snapshot. A price depends only on the vehicle, the
 * pricing rules and the dates — never on bookings — so it stays right for as long as the snapshot does (a new
 * snapshot after any vehicle or rule change starts an empty memo). Storefronts ask for the same few date
 * windows over and over, and quoting every vehicle per search was most of its cost.
 */
const memos = new WeakMap<CatalogueSnapshot, { windows: Map<string, Map<number, number>>; totals: number }>();

/** The memo of the snapshot: windows and totals kept, bytes estimated. */
export function priceMemoSize(cat: CatalogueSnapshot | null): CacheSize {
  const m = cat ? memos.get(cat) : undefined;
  const windows = m?.windows.size ?? 0;
  const totals = m?.totals ?? 0;
  return {
    entries: totals,
    bytes: windows * WINDOW_BYTES + totals * TOTAL_BYTES,
    maxEntries: MAX_TOTALS,
    maxBytes: MAX_WINDOWS * WINDOW_BYTES + MAX_TOTALS * TOTAL_BYTES,
  };
}

export function rentalTotal(cat: CatalogueSnapshot, v: VehicleRow, period: Period): number {
  let memo = memos.get(cat);
  if (!memo) memos.set(cat, (memo = { windows: new Map(), totals: 0 }));
  const { windows } = memo;
  const key = `${period.pickupDate}|${period.days}`;
  let totals = windows.get(key);
  if (!totals) {
    if (windows.size >= MAX_WINDOWS || memo.totals >= MAX_TOTALS) {
      windows.clear();
      memo.totals = 0;
    }
    windows.set(key, (totals = new Map()));
  }
  const id = Number(v.id);
  let total = totals.get(id);
  if (total === undefined) {
    total = priceOrThrow(v, cat.rules, period, []).total;
    totals.set(id, total);
    memo.totals += 1;
  }
  return total;
}
