import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import { sql } from 'drizzle-orm';
import { one } from '../../../platform/db/types.js';
import { HttpError } from '../../../platform/http/errors.js';
import { changeStatus } from './service.js';
import { recordVendorAudit } from '../ledger/audit.js';
import { recomputeReliability } from '../ledger/score.js';
import { marketplaceSettingsIn } from '../ledger/settings.js';
import { vendorById } from '../vendors/repo.js';

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
  if (!v) throw new HttpError(403, 'PERMISSION_DENIED', 'Only approved vendors can cancel their bookings.');
  const own = await one<{ vehicle_id: string }>(
    p.db,
    sql`SELECT b.vehicle_id::text FROM rental_bookings b JOIN rental_vehicles v ON v.id = b.vehicle_id
    WHERE b.id = ${id} AND v.vendor_id = ${user.id}`,
  );
  if (!own) throw new HttpError(404, 'RESOURCE_NOT_FOUND', `Booking ${id} does not exist.`);
  let score = v.reliability_score;
  const r = await changeStatus(p, id, 'cancelled', {
    by: 'vendor',
    within: async (tx) => {
      const note = reason?.trim()
        ? `Booking ${id} cancelled by the vendor: ${reason.trim()}`
        : `Booking ${id} cancelled by the vendor.`;
      await recordVendorAudit(tx, {
        vendorId: user.id,
        event: 'booking_cancelled',
        bookingId: id,
        vehicleId: Number(own.vehicle_id),
        note,
      });
      const s = await marketplaceSettingsIn(tx);
      score = (await recomputeReliability(tx, user.id, 'cancel', Number(own.vehicle_id), s.rolling_window_months))
        .after;
    },
  });
  return { id, status: 'cancelled', previous_status: r.previous, reliability_score: score };
}
