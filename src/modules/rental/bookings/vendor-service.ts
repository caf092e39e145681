import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import { bookingNotFound, RentalErrors } from '../errors.js';
import { changeStatus } from './service.js';
import { recordVendorAudit } from '../ledger/audit.js';
import { recomputeReliability } from '../ledger/score.js';
import { marketplaceSettingsIn } from '../ledger/settings.js';
import { vendorById } from '../vendors/repo.js';
import { vendorBookingVehicle } from './vendor-repo.js';

/**
 * A vendor cancels a booking of one of its own vehicles: recorded as vendor-initiated, so it costs reliability
 * (−5 for 6 months, reference §2.13). Another vendor's booking answers 404 like a missing one; the status machine
 * decides which bookings can still be cancelled (409 otherwise).
 */
export async function vendorCancelBooking(
  p: Platform,
  user: AuthUser,
  id: number,
  reason?: string,
): Promise<{ id: number; status: 'cancelled'; previous_status: string; reliability_score: number }> {
  const v = await vendorById(p.db, user.id);
  if (!v) throw RentalErrors.permissionDenied('Only approved vendors can cancel their bookings.');
  const vehicleId = await vendorBookingVehicle(p.db, user.id, id);
  if (vehicleId === undefined) throw bookingNotFound(id);
  let score = v.reliability_score;
  const why = reason?.trim();
  const r = await changeStatus(p, id, 'cancelled', {
    by: 'vendor',
    // the customer is told in the cancel's transaction; everything paid is refunded (refunds: 'full')
    mail: {
      kind: 'booking_cancelled',
      extra: (b) => [
        ['Reason', 'The vehicle is no longer available: its provider cancelled the booking.'],
        ...(why ? [['Note', why] as [string, string]] : []),
        ...(b.payment_status === 'refunded' || b.payment_status === 'partially_refunded'
          ? [['Refund', 'Everything you paid for this booking is refunded.'] as [string, string]]
          : []),
      ],
    },
    within: async (tx) => {
      const note = reason?.trim()
        ? `Booking ${id} cancelled by the vendor: ${reason.trim()}`
        : `Booking ${id} cancelled by the vendor.`;
      await recordVendorAudit(tx, {
        vendorId: user.id,
        event: 'booking_cancelled',
        bookingId: id,
        vehicleId,
        note,
      });
      const s = await marketplaceSettingsIn(tx);
      score = (await recomputeReliability(tx, user.id, 'cancel', vehicleId, s.rolling_window_months)).after;
    },
  });
  return { id, status: 'cancelled', previous_status: r.previous, reliability_score: score };
}
