import type { Platform } from '../../../../platform/context.js';
import { unknownLocation } from '../../errors.js';
import {
  availabilityView,
  checkAvailability,
  parsePeriod,
  priceOrThrow,
  returnedElsewhere,
  type AvailabilityResult,
} from '../service.js';
import { bookingAmountsFit } from '../../bookings/amount-bound.js';
import { catalogueOf } from '../../catalogue.js';
import { displayCurrency, shownIn } from '../shown-price.js';
import { unavailability } from '../free.js';
import type { BookingCheckView } from '../schema.js';
import type { BookingCheckInput } from './schema.js';
import { addonMax, rulesFor } from '../../pricing/engine.js';
import type { PricingRule } from '../../pricing/types.js';
import type { VehicleRow } from '../../vehicles/repo.js';

const MAX_ALTERNATIVES = 3;

export interface Alternative {
  vehicle_id: number;
  name: string;
  category: string;
  price_per_day: number;
  total: number;
  currency: string;
}

/** The availability answer for a check body (pickup location = the availability location; return location must exist). */
export async function checkSlot(p: Platform, input: BookingCheckInput): Promise<AvailabilityResult> {
  const cat = await catalogueOf(p).get();
  if (input.return_location_id !== undefined && !cat.locations.has(input.return_location_id)) {
    throw unknownLocation('return_location_id', input.return_location_id);
  }
  if (input.pickup_location_id !== undefined && !cat.locations.has(input.pickup_location_id)) {
    throw unknownLocation('pickup_location_id', input.pickup_location_id);
  }
  return checkAvailability(p, p.db, { ...input, location_id: input.pickup_location_id }, { catalogue: cat });
}

/** Up to 3 other free vehicles of the same category for the same period, cheapest first. */
export async function alternativesFor(
  p: Platform,
  r: AvailabilityResult,
  input: BookingCheckInput,
): Promise<Alternative[]> {
  const cat = await catalogueOf(p).get();
  const period = parsePeriod(p, input);
  const same = [...cat.vehicles.values()].filter(
    (v) => Number(v.id) !== Number(r.vehicle.id) && v.category === r.vehicle.category && v.service_type !== 'transfer',
  );
  const why = await unavailability(
    p,
    p.db,
    cat,
    same,
    period,
    input.pickup_location_id,
    undefined,
    input.return_location_id,
  );
  const currency = p.storeCurrency.code;
  const out: Alternative[] = [];
  for (const v of same) {
    if (why.has(Number(v.id))) continue;
    let total: number;
    try {
      const q = priceOrThrow(
        v,
        cat.rules,
        period,
        input.addons ?? [],
        returnedElsewhere(v, input.pickup_location_id, input.return_location_id),
      );
      if (!bookingAmountsFit(q)) continue; // could not be booked (amounts past the booking's columns)
      total = q.total;
    } catch {
      continue; // an add-on this vehicle does not offer
    }
    out.push({
      vehicle_id: Number(v.id),
      name: v.name,
      category: v.category,
      price_per_day: Number(v.price_per_day),
      total,
      currency,
    });
  }
  return out.sort((a, b) => a.total - b.total || a.vehicle_id - b.vehicle_id).slice(0, MAX_ALTERNATIVES);
}

/** The add-on rules that apply to the vehicle, one per code (the one the engine would price), in the operator's order
 * (priority, then creation). */
export function extrasOffered(rules: readonly PricingRule[], v: VehicleRow): BookingCheckView['extras'] {
  const priced = { id: Number(v.id), category: v.category, price_per_day: v.price_per_day, deposit_percent: null };
  const seen = new Set<string>();
  const chosen: (PricingRule & { code: string })[] = [];
  for (const r of rulesFor(rules, 'addon', priced)) {
    if (!r.code || seen.has(r.code)) continue;
    seen.add(r.code);
    chosen.push({ ...r, code: r.code });
  }
  const out: BookingCheckView['extras'] = [];
  for (const r of chosen.sort((a, b) => b.priority - a.priority || a.id - b.id)) {
    out.push({
      code: r.code,
      name: r.name,
      charge: r.charge ?? 'per_booking',
      amount: Number(r.amount ?? 0),
      max_per_day: addonMax(r),
    });
  }
  return out;
}

/** The check's total in the visitor's display currency, when one other than the store's was asked for. */
function displayed(
  p: Platform,
  wanted: string | undefined,
  total: number | undefined,
): Pick<BookingCheckView, 'display'> {
  const conv = displayCurrency(p, wanted);
  if (!conv || total === undefined) return {};
  return { display: { currency: conv.format.code, total: shownIn(conv, total) } };
}

export async function bookingCheck(
  p: Platform,
  input: BookingCheckInput,
): Promise<{ result: AvailabilityResult; data: BookingCheckView }> {
  const r = await checkSlot(p, input);
  const view = availabilityView(p, r);
  const loc = input.pickup_location_id ?? (r.vehicle.location_id === null ? null : Number(r.vehicle.location_id));
  const cat = await catalogueOf(p).get();
  const data = {
    ...view,
    pickup_location_id: loc,
    return_location_id: input.return_location_id ?? loc,
    extras: extrasOffered(cat.rules, r.vehicle),
    ...displayed(p, input.currency, view.total),
  };
  if (r.available) return { result: r, data };
  return { result: r, data: { ...data, alternatives: await alternativesFor(p, r, input) } };
}
