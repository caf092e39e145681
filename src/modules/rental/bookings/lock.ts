import type { Db } from '../../../platform/db/types.js';
import { bookingNotFound } from '../errors.js';
import { lockVehicle } from '../vehicles/repo.js';
import { expireLapsedHolds } from './expiry.js';
import { bookingById, type BookingRow } from './repo.js';

declare const lockedBrand: unique symbol;

/** A booking read under its lock (lockBooking): functions that move its money take only this, so none runs unlocked. */
export type LockedBooking = BookingRow & { readonly [lockedBrand]: true };

/**
 * Locks a booking for a change, the one lock every path that moves a booking's status, payments or price takes:
 * first its vehicle, then the booking row (the order createBooking uses too, so concurrent writes on one vehicle
 * serialise instead of deadlocking). Holds of the vehicle that lapsed are swept first (into `expired`, to be mailed
 * after commit). 404 when it does not exist.
 */
export async function lockBooking(tx: Db, id: number, expired: BookingRow[]): Promise<LockedBooking> {
  const seen = await bookingById(tx, id);
  if (!seen) throw bookingNotFound(id);
  await lockVehicle(tx, Number(seen.vehicle_id));
  expired.push(...(await expireLapsedHolds(tx, Number(seen.vehicle_id))));
  const cur = await bookingById(tx, id, true);
  if (!cur) throw bookingNotFound(id);
  return cur as LockedBooking;
}
