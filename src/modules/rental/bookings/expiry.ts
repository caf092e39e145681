import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { emitBookingStatus } from '../events.js';
import { mailBooking } from './mails.js';
import { onBookingStatusChange } from '../ledger/commission.js';
import { cancelLapsedUnpaid, EXPIRED_REASON, releaseLapsedHolds, type BookingRow } from './repo.js';

/**
 * Lapsed holds, in the caller's transaction (lazily under the vehicle lock, or for all vehicles by the job):
 * unpaid pending_payment bookings past their deadline are cancelled (booking.cancelled event), other lapsed
 * pending holds just stop holding the slot. Returns the cancelled bookings: mail them after the commit.
 */
export async function expireLapsedHolds(tx: Db, vehicleId?: number): Promise<BookingRow[]> {
  const cancelled = await cancelLapsedUnpaid(tx, vehicleId);
  for (const b of cancelled) {
    await emitBookingStatus(tx, b, 'pending_payment');
    await onBookingStatusChange(tx, b, 'pending_payment', 'cancelled');
  }
  await releaseLapsedHolds(tx, vehicleId);
  return cancelled;
}

/** After the commit: tells each customer why the booking was cancelled (mail failures are logged, never thrown). */
export async function mailExpired(p: Platform, cancelled: readonly BookingRow[]): Promise<void> {
  for (const b of cancelled) await mailBooking(p, 'booking_cancelled', b, [['Reason', EXPIRED_REASON]]);
}
