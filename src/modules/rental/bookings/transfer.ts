import type { Platform } from '../../../platform/context.js';
import { toDate, type Db } from '../../../platform/db/types.js';
import { VehicleNotAvailable } from '../availability/not-available.js';
import { invalidField } from '../errors.js';
import { cents, Decimal } from '../money.js';
import { assertBookingAmountsFit } from './amount-bound.js';
import { rulesFor } from '../pricing/engine.js';
import type { PricingRule } from '../pricing/types.js';
import { rentalSettings } from '../settings.js';
import { isValidDate, isValidTime, localToUtc, utcToLocal } from '../time.js';
import { routeById } from '../transfer-routes/repo.js';
import { routePrice } from '../transfer-routes/routes.js';
import type { VehicleRow } from '../vehicles/repo.js';
import { findOverlap, updateBooking, type BookingRow } from './repo.js';
import type { BookingPriceColumns } from './schema.js';
import { BLOCKING, type BookingStatus } from './status.js';

export interface TransferInput {
  transfer_route_id?: number;
  passengers?: number;
  pickup_date: string;
  pickup_time?: string;
}

/**
 * A transfer: the route's price (+ tax rule), the vehicle held from pickup for the route's duration (at least
 * one hour) plus the buffer. Runs inside the booking transaction, after the vehicle row is locked.
 */
export async function transferFields(
  p: Platform,
  tx: Db,
  v: VehicleRow,
  rules: readonly PricingRule[],
  i: TransferInput,
): Promise<BookingPriceColumns> {
  const s = rentalSettings(p);
  if (v.service_type === 'rental')
    throw new VehicleNotAvailable('This vehicle does not do transfers.', { reason: 'service_type' });
  if (v.status !== 'active') throw new VehicleNotAvailable(`The vehicle is ${v.status}.`, { reason: v.status });
  if (i.transfer_route_id === undefined) throw invalidField('transfer_route_id', 'A transfer needs transfer_route_id.');
  const route = await routeById(tx, i.transfer_route_id);
  if (!route || !route.is_active)
    throw invalidField('transfer_route_id', `Transfer route ${i.transfer_route_id} does not exist.`);
  if (i.passengers !== undefined && v.transfer_max_passengers !== null && i.passengers > v.transfer_max_passengers) {
    throw invalidField('passengers', `The vehicle carries at most ${v.transfer_max_passengers} passengers.`);
  }
  if (!isValidDate(i.pickup_date)) throw invalidField('pickup_date', 'pickup_date must be YYYY-MM-DD.');
  if (i.pickup_time !== undefined && !isValidTime(i.pickup_time))
    throw invalidField('pickup_time', 'pickup_time must be HH:MM.');
  const pickupAt = localToUtc(i.pickup_date, i.pickup_time ?? s.defaultTime, s.timezone);
  const returnAt = new Date(pickupAt.getTime() + Math.max(60, route.duration_min) * 60_000);
  const buf = s.bufferMinutes * 60_000;
  if (await findOverlap(tx, Number(v.id), new Date(pickupAt.getTime() - buf), new Date(returnAt.getTime() + buf))) {
    throw new VehicleNotAvailable('The vehicle is not available at this time (booked).', { reason: 'booked' });
  }
  const price = new Decimal(routePrice(route));
  const taxRule = rulesFor(rules, 'tax', {
    id: Number(v.id),
    category: v.category,
    price_per_day: v.price_per_day,
    deposit_percent: v.deposit_percent,
  })[0];
  const tax = cents(price.times(taxRule?.percent ?? '0').div(100));
  const total = price.plus(tax);
  assertBookingAmountsFit({ total, tax, price_per_day: price });
  return {
    kind: 'transfer',
    transfer_route_id: Number(route.id),
    transfer_origin: route.origin,
    transfer_destination: route.destination,
    passengers: i.passengers ?? null,
    pickup_location_id: route.origin_location_id,
    return_location_id: route.destination_location_id,
    pickup_at: pickupAt.toISOString(),
    return_at: returnAt.toISOString(),
    days: 1,
    price_per_day: price.toFixed(2),
    net_price: price.toFixed(2),
    addons_total: '0',
    tax: tax.toFixed(2),
    total: total.toFixed(2),
    deposit: '0',
    remaining: total.toFixed(2),
    addons: [],
    breakdown: { route_price: price.toNumber(), pricing: route.pricing },
  };
}

/** Moves a transfer to a new pickup date/time (same route duration), re-checked for overlap excluding itself. */
export async function moveTransfer(
  p: Platform,
  tx: Db,
  cur: BookingRow,
  i: { pickup_date?: string; pickup_time?: string; return_date?: string; return_time?: string; notes?: string },
): Promise<BookingRow> {
  const s = rentalSettings(p);
  if (i.return_date !== undefined || i.return_time !== undefined) {
    throw invalidField('return_date', 'A transfer ends after its route duration: change pickup_date/pickup_time only.');
  }
  const oldPickup = toDate(cur.pickup_at);
  const local = utcToLocal(oldPickup, s.timezone);
  const date = i.pickup_date ?? local.date;
  const time = i.pickup_time ?? local.time;
  if (!isValidDate(date)) throw invalidField('pickup_date', 'pickup_date must be YYYY-MM-DD.');
  if (!isValidTime(time)) throw invalidField('pickup_time', 'pickup_time must be HH:MM.');
  const pickupAt = localToUtc(date, time, s.timezone);
  const returnAt = new Date(pickupAt.getTime() + (toDate(cur.return_at).getTime() - oldPickup.getTime()));
  const buf = s.bufferMinutes * 60_000;
  if (
    BLOCKING.includes(cur.status as BookingStatus) &&
    (await findOverlap(
      tx,
      Number(cur.vehicle_id),
      new Date(pickupAt.getTime() - buf),
      new Date(returnAt.getTime() + buf),
      Number(cur.id),
    ))
  ) {
    throw new VehicleNotAvailable('The vehicle is not available at this time (booked).', { reason: 'booked' });
  }
  return (await updateBooking(tx, Number(cur.id), {
    pickup_at: pickupAt.toISOString(),
    return_at: returnAt.toISOString(),
    notes: i.notes,
  }))!;
}
