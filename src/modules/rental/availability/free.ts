import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { holdingIndexOf } from './holding-index.js';
import { ruleReason, type Period, type UnavailableReason } from './service.js';
import type { CatalogueSnapshot } from '../catalogue.js';
import { rentalSettings } from '../settings.js';
import type { VehicleRow } from '../vehicles/repo.js';
import { busyVehicles } from './held-repo.js';

/**
 * Why each vehicle is not free for the period (absent = free): the rules in memory, then the holding index (a query
 * only for vehicles it is reloading), or when it is cold ONE overlap query.
 */
export async function unavailability(
  p: Platform,
  db: Db,
  cat: CatalogueSnapshot,
  vehicles: readonly VehicleRow[],
  period: Period,
  locationId?: number,
  heldBetween?: (from: Date, to: Date) => Promise<Set<number>>,
  returnLocationId?: number,
): Promise<Map<number, UnavailableReason>> {
  const now = new Date();
  const out = new Map<number, UnavailableReason>();
  const rest: number[] = [];
  for (const v of vehicles) {
    const r = ruleReason(p, cat, v, period, locationId, now, returnLocationId);
    if (r) out.set(Number(v.id), r);
    else rest.push(Number(v.id));
  }
  const buf = rentalSettings(p).bufferMinutes * 60_000;
  const from = new Date(period.pickupAt.getTime() - buf);
  const to = new Date(period.returnAt.getTime() + buf);
  const index = db === p.db ? holdingIndexOf(p).busy(rest, from, to, now) : undefined;
  let busy: Set<number>;
  if (index) {
    busy = index.busy;
    if (index.unsure.length) for (const id of await busyVehicles(db, index.unsure, from, to)) busy.add(id);
  } else busy = heldBetween ? await heldBetween(from, to) : await busyVehicles(db, rest, from, to);
  for (const id of rest) if (busy.has(id)) out.set(id, 'booked');
  return out;
}
