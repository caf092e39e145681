import type { Db } from '../../../platform/db/types.js';
import { bookingNotFound, RentalErrors, vehicleNotFound } from '../errors.js';
import { lockVehicle } from '../vehicles/repo.js';
import type { LapsedHolds } from './expiry.js';
import { bookingById, type BookingRow } from './repo.js';

declare const lockedBrand: unique symbol;

/** A booking read under its lock (lockBooking): functions that move its money take only this, so none runs unlocked. */
export type LockedBooking = BookingRow & { readonly [lockedBrand]: true };

/**
 * Locks a booking for a change, the one lock every path that moves a booking's status, payments or price takes:
 * first its vehicle, then the booking row (the order createBooking uses too, so concurrent writes on one vehicle
 * serialise instead of deadlocking). Holds of the vehicle that lapsed are swept first (into `expired`, which stores
 * their customers' mails in this transaction). 404 when it does not exist. `toVehicle` (a move to another vehicle): that vehicle is locked too, the
 * two in id order (two moves between the same vehicles in opposite directions queue instead of deadlocking); 404
 * VEHICLE_NOT_FOUND when it does not exist.
 */
export async function lockBooking(
  tx: Db,
  id: number,
  expired: LapsedHolds,
  toVehicle?: number,
): Promise<LockedBooking> {
  const seen = await bookingById(tx, id);
  if (!seen) throw bookingNotFound(id);
  const own = Number(seen.vehicle_id);
  const vehicles = toVehicle === undefined || toVehicle === own ? [own] : [own, toVehicle].sort((a, b) => a - b);
  for (const v of vehicles) {
    if (!(await lockVehicle(tx, v)) && v !== own) throw vehicleNotFound(v);
    await expired.sweep(tx, v);
  }
  const cur = await bookingById(tx, id, true);
  if (!cur) throw bookingNotFound(id);
  // moved to another vehicle between the first read and the lock: that vehicle is not the one locked
  if (Number(cur.vehicle_id) !== own)
    throw RentalErrors.stateConflict('The booking was moved to another vehicle meanwhile: try again.');
  return cur as LockedBooking;
}
