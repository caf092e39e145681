import { priceOrThrow, type Period } from '../service.js';
import type { CatalogueSnapshot } from '../../catalogue.js';
import type { VehicleRow } from '../../vehicles/repo.js';

const MAX_WINDOWS = 4096;

/**
 * Rental totals per (pickup date, days) for one catalogue snapshot. A price depends only on the vehicle, the
 * pricing rules and the dates — never on bookings — so it stays right for as long as the snapshot does (a new
 * snapshot after any vehicle or rule change starts an empty memo). Storefronts ask for the same few date
 * windows over and over, and quoting every vehicle per search was most of its cost.
 */
const memos = new WeakMap<CatalogueSnapshot, Map<string, Map<number, number>>>();

export function rentalTotal(cat: CatalogueSnapshot, v: VehicleRow, period: Period): number {
  let windows = memos.get(cat);
  if (!windows) memos.set(cat, (windows = new Map()));
  const key = `${period.pickupDate}|${period.days}`;
  let totals = windows.get(key);
  if (!totals) {
    if (windows.size >= MAX_WINDOWS) windows.clear();
    windows.set(key, (totals = new Map()));
  }
  const id = Number(v.id);
  let total = totals.get(id);
  if (total === undefined) {
    total = priceOrThrow(v, cat.rules, period, []).total;
    totals.set(id, total);
  }
  return total;
}
