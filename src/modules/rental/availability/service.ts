import type { Platform } from '../../../platform/context.js';
import type { CacheSize } from '../../../platform/cache-sizes.js';
import type { Db } from '../../../platform/db/types.js';
import { vehicleNotFound, invalidField, RentalErrors, unknownLocation } from '../errors.js';
import { catalogueOf, type CatalogueSnapshot } from '../catalogue.js';
import type { LocationRow } from '../locations/repo.js';
import { AddonQuantityError, quote, UnknownAddonError, type AddonRequest, type Quote } from '../pricing/engine.js';
import type { PricingRule } from '../pricing/types.js';
import { rentalSettings } from '../settings.js';
import { addDays, isValidDate, isValidTime, localToUtc, rentalDays, WEEKDAY_KEYS } from '../time.js';
import { findOverlap } from '../bookings/repo.js';
import { holdingIndexOf } from './holding-index.js';
import type { VehicleRow } from '../vehicles/repo.js';
import { deepFreeze } from '../../../platform/deep-freeze.js';
import { assertBookingAmountsFit } from '../bookings/amount-bound.js';
import type { AvailabilityView } from './schema.js';

export interface AvailabilityInput {
  vehicle_id: number;
  pickup_date: string;
  return_date: string;
  pickup_time?: string;
  return_time?: string;
  location_id?: number;
  /** Where the car is returned (its opening hours decide the return time); absent: the pick-up location. */
  return_location_id?: number | null;
  addons?: AddonRequest[];
}

export type UnavailableReason =
  | 'booked'
  | 'blocked'
  | 'maintenance'
  | 'inactive'
  | 'blocked_date'
  | 'min_notice'
  | 'duration'
  | 'outside_opening_hours';

export interface Period {
  pickupDate: string;
  returnDate: string;
  pickupTime: string;
  returnTime: string;
  pickupAt: Date;
  returnAt: Date;
  days: number;
}

export interface AvailabilityResult {
  available: boolean;
  reason?: UnavailableReason;
  vehicle: VehicleRow;
  period: Period;
  quote: Quote;
}

/** Longest period priced at all (longer → 400 INVALID_DATE_RANGE); the configured maximum days still gives `duration`. */
export const MAX_PERIOD_DAYS = 366;

const bad = (msg: string, field: string) => invalidField(field, msg);

/** Validates dates/times (store timezone) and computes the period and its rental days. 400 when malformed or reversed. */
export function parsePeriod(
  p: Platform,
  i: { pickup_date: unknown; return_date: unknown; pickup_time?: unknown; return_time?: unknown },
): Period {
  const s = rentalSettings(p);
  for (const f of ['pickup_date', 'return_date'] as const) {
    const v = i[f];
    if (typeof v !== 'string' || !isValidDate(v)) throw bad(`${f} must be a date in the format YYYY-MM-DD.`, f);
  }
  for (const f of ['pickup_time', 'return_time'] as const) {
    const v = i[f];
    if (v !== undefined && (typeof v !== 'string' || !isValidTime(v)))
      throw bad(`${f} must be a time in the format HH:MM.`, f);
  }
  const pickupDate = i.pickup_date as string;
  const returnDate = i.return_date as string;
  const pickupTime = (i.pickup_time as string | undefined) ?? s.defaultTime;
  const returnTime = (i.return_time as string | undefined) ?? s.defaultTime;
  const pickupAt = localToUtc(pickupDate, pickupTime, s.timezone);
  const returnAt = localToUtc(returnDate, returnTime, s.timezone);
  if (returnAt.getTime() <= pickupAt.getTime()) {
    throw RentalErrors.invalidDateRange('The return must be after the pickup.', {
      pickup_date: pickupDate,
      return_date: returnDate,
    });
  }
  const days = rentalDays(pickupAt, returnAt, s.graceMinutes);
  // Longer than the maximum is a 200 `duration` answer, but a period of years would make the engine price every day: refuse it.
  const cap = Math.max(MAX_PERIOD_DAYS, s.maxDays);
  if (days > cap)
    throw RentalErrors.invalidDateRange(`A period is at most ${cap} days.`, {
      pickup_date: pickupDate,
      return_date: returnDate,
    });
  return { pickupDate, returnDate, pickupTime, returnTime, pickupAt, returnAt, days };
}

function withinHours(
  loc: LocationRow | undefined,
  date: string,
  time: string,
  weekdayOf: (d: string) => number,
): boolean {
  if (!loc?.opening_hours) return true;
  const h = loc.opening_hours[WEEKDAY_KEYS[weekdayOf(date)]!];
  return !!h && time >= h.open && time <= h.close;
}

/**
 * A one-way rental: returned at a known location other than its pick-up (the one asked for, else the vehicle's own).
 */
export function returnedElsewhere(
  vehicle: Pick<VehicleRow, 'location_id'>,
  pickupLocationId: number | null | undefined,
  returnLocationId: number | null | undefined,
): boolean {
  if (returnLocationId === null || returnLocationId === undefined) return false;
  const home = vehicle.location_id === null || vehicle.location_id === undefined ? null : Number(vehicle.location_id);
  const pickup = pickupLocationId ?? home;
  return pickup !== null && Number(returnLocationId) !== pickup;
}

/** Quotes per rules list (a catalogue snapshot's): a price depends only on the vehicle's price fields, the start and the days. */
const quoteMemo = new WeakMap<readonly PricingRule[], Map<string, Quote>>();
/**
 * Quotes kept per rules list at most; past it the memo starts again. Bookings of distinct slots each make a quote
 * that is rarely asked again, so a larger memo only holds more of them through the old generation.
 */
const QUOTE_MEMO_MAX = 5_000;
/** Estimated bytes of one kept quote (its key, the frozen quote, its Decimals and lines). */
const QUOTE_BYTES = 2048;

/** The quotes kept for `rules` (the current catalogue snapshot's). */
export function quoteMemoSize(rules: readonly PricingRule[] | null): CacheSize {
  const n = rules ? (quoteMemo.get(rules)?.size ?? 0) : 0;
  return { entries: n, bytes: n * QUOTE_BYTES, maxEntries: QUOTE_MEMO_MAX, maxBytes: QUOTE_MEMO_MAX * QUOTE_BYTES };
}

/** The quote for the period (memoised, frozen: callers share it); 400 for an unknown add-on. */
export function priceOrThrow(
  v: VehicleRow,
  rules: readonly PricingRule[],
  period: Period,
  addons: readonly AddonRequest[],
  returnedElsewhere = false,
): Quote {
  let memo = quoteMemo.get(rules);
  if (!memo) quoteMemo.set(rules, (memo = new Map()));
  const key = `${v.id}|${v.category}|${v.price_per_day}|${v.deposit_percent}|${period.pickupDate}|${period.days}|${addons.map((a) => (typeof a === 'string' ? a : `${a.code}*${a.quantity}`)).join(',')}|${returnedElsewhere ? 1 : 0}`;
  const hit = memo.get(key);
  if (hit) return hit;
  try {
    const q = deepFreeze(
      quote(
        { id: Number(v.id), category: v.category, price_per_day: v.price_per_day, deposit_percent: v.deposit_percent },
        rules,
        period.pickupDate,
        period.days,
        addons,
        returnedElsewhere,
      ),
    );
    if (memo.size >= QUOTE_MEMO_MAX) memo.clear();
    memo.set(key, q);
    return q;
  } catch (e) {
    if (e instanceof UnknownAddonError) throw RentalErrors.invalidParams(e.message, { field: 'addons', addon: e.code });
    if (e instanceof AddonQuantityError)
      throw RentalErrors.invalidParams(e.message, { field: 'addons', addon: e.code, max_per_day: e.max });
    throw e;
  }
}

/**
 * The availability decision (design §4), in this order: vehicle status, duration, minimum notice, blocked
 * dates, opening hours, then the overlap (vehicles, locations and rules come from the catalogue cache; the
 * overlap from the holding index when `db` is the platform's handle and the index is sure, else one query). `db` may be a transaction holding the vehicle lock: then pass `catalogue`, read
 * before the transaction began (on PGlite a query outside the open transaction would wait for it).
 */
export async function checkAvailability(
  p: Platform,
  db: Db,
  input: AvailabilityInput,
  opts: {
    excludeBookingId?: number;
    now?: Date;
    period?: Period;
    catalogue?: CatalogueSnapshot;
    /** A "booked" from the index is asked again of the database (a refusal must not rest on a reload in flight). */
    confirmBooked?: boolean;
    /**
     * The caller inserts a slot-holding booking next, in this transaction: the exclusion constraint (migration 0500)
     * refuses an overlap there, so no overlap query is sent (a refusal surfaces as 23P01 → 409 "booked").
     */
    overlapByConstraint?: boolean;
  } = {},
): Promise<AvailabilityResult> {
  const s = rentalSettings(p);
  const period = opts.period ?? parsePeriod(p, input);
  const cat = opts.catalogue ?? (await catalogueOf(p).get());
  const vehicle = cat.vehicles.get(input.vehicle_id);
  if (!vehicle) throw vehicleNotFound(input.vehicle_id);
  if (input.location_id !== undefined && !cat.locations.has(input.location_id))
    throw unknownLocation('location_id', input.location_id);
  const q = priceOrThrow(
    vehicle,
    cat.rules,
    period,
    input.addons ?? [],
    returnedElsewhere(vehicle, input.location_id, input.return_location_id),
  );
  // a price the booking's columns cannot hold is refused (400 naming it) before any answer or write
  assertBookingAmountsFit(q);
  const result = (reason?: UnavailableReason): AvailabilityResult => ({
    available: !reason,
    ...(reason ? { reason } : {}),
    vehicle,
    period,
    quote: q,
  });

  const reason = ruleReason(
    p,
    cat,
    vehicle,
    period,
    input.location_id,
    opts.now ?? new Date(),
    input.return_location_id ?? undefined,
  );
  if (reason) return result(reason);
  if (opts.overlapByConstraint) return result();
  const buf = s.bufferMinutes * 60_000;
  const from = new Date(period.pickupAt.getTime() - buf);
  const to = new Date(period.returnAt.getTime() + buf);
  // outside a transaction the holding index answers, naming what holds the slot as findOverlap would (undefined
  // while it cannot); under the vehicle lock, the database
  const known =
    db === p.db
      ? holdingIndexOf(p).takenBy(Number(vehicle.id), from, to, opts.now ?? new Date(), opts.excludeBookingId)
      : undefined;
  if (known === 'free') return result();
  if (known !== undefined && !opts.confirmBooked) return result(known);
  // the create pre-check confirms a "taken" on the database: a refusal must not rest on a reload in flight
  const clash = await findOverlap(db, Number(vehicle.id), from, to, opts.excludeBookingId);
  if (!clash) return result();
  return result(Number(clash.id) < 0 ? 'blocked' : 'booked');
}

/**
 * Every rule of the decision except the overlap query (vehicle status, duration, minimum notice, blocked dates,
 * opening hours), in memory: search and alternatives run it over many vehicles and then ask the database once.
 */
export function ruleReason(
  p: Platform,
  cat: CatalogueSnapshot,
  vehicle: VehicleRow,
  period: Period,
  locationId: number | undefined,
  now: Date,
  returnLocationId?: number,
): UnavailableReason | undefined {
  const s = rentalSettings(p);
  if (vehicle.status === 'maintenance') return 'maintenance';
  if (vehicle.status !== 'active') return 'inactive';
  if (period.days < s.minDays || period.days > s.maxDays) return 'duration';
  if (period.pickupAt.getTime() < now.getTime() + s.minNoticeHours * 3_600_000) return 'min_notice';
  const blocked = new Set(vehicle.blocked_dates);
  if (blocked.size) {
    for (let d = period.pickupDate; d <= period.returnDate; d = addDays(d, 1))
      if (blocked.has(d)) return 'blocked_date';
  }
  const locId = locationId ?? (vehicle.location_id === null ? undefined : Number(vehicle.location_id));
  const loc = locId === undefined ? undefined : cat.locations.get(locId);
  // a one-way rental is returned where that desk's hours apply
  const back = returnLocationId === undefined ? loc : cat.locations.get(returnLocationId);
  const wd = (d: string) => new Date(d + 'T00:00:00Z').getUTCDay();
  if (
    !withinHours(loc, period.pickupDate, period.pickupTime, wd) ||
    !withinHours(back, period.returnDate, period.returnTime, wd)
  ) {
    return 'outside_opening_hours';
  }
  return undefined;
}

/** The public answer (design §4). */
export function availabilityView(p: Platform, r: AvailabilityResult): AvailabilityView {
  const q = r.quote;
  return {
    available: r.available,
    ...(r.reason ? { reason: r.reason } : {}),
    vehicle_id: Number(r.vehicle.id),
    pickup: { date: r.period.pickupDate, time: r.period.pickupTime, at: r.period.pickupAt.toISOString() },
    return: { date: r.period.returnDate, time: r.period.returnTime, at: r.period.returnAt.toISOString() },
    days: q.days,
    price_per_day: q.price_per_day,
    net_price: q.net_price,
    currency: p.storeCurrency.code,
    breakdown: q.breakdown,
    tax_rate: q.tax_rate,
    tax: q.tax,
    total: q.total,
    deposit_percent: q.deposit_percent,
    deposit: q.deposit,
    remaining: q.remaining,
  };
}
