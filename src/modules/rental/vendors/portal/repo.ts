import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import type { BookingStatus } from '../../bookings/status.js';

export interface VendorBookingRow {
  id: string | number;
  reference: string;
  vehicle_id: string | number;
  vehicle_name: string;
  customer_name: string;
  pickup_at: string;
  return_at: string;
  days: number;
  total: string;
  currency: string;
  status: BookingStatus;
  cancelled_by: string | null;
}

export interface VendorBookingFilter {
  scope: 'upcoming' | 'all';
  status?: string | undefined;
}

/**
 * Bookings of the vendor's own vehicles. `upcoming`: pickup from now on, in a status that still holds the car,
 * soonest first; `all`: every booking, newest pickup first.
 */
export async function vendorBookings(
  db: Db,
  vendorId: number,
  f: VendorBookingFilter,
  limit: number,
  offset: number,
): Promise<{ items: VendorBookingRow[]; total: number }> {
  const where = sql`v.vendor_id = ${vendorId}
    ${f.scope === 'upcoming' ? sql`AND b.pickup_at >= now() AND b.status IN ('pending_payment', 'pending', 'confirmed')` : sql``}
    ${f.status ? sql`AND b.status = ${f.status}` : sql``}`;
  const order = f.scope === 'upcoming' ? sql`b.pickup_at ASC, b.id ASC` : sql`b.pickup_at DESC, b.id DESC`;
  const [items, total] = await Promise.all([
    rows<VendorBookingRow>(
      db,
      sql`SELECT b.id, b.reference, b.vehicle_id, v.name AS vehicle_name, b.customer_name, b.pickup_at, b.return_at, b.days,
        b.total::text AS total, b.currency, b.status, b.cancelled_by
      FROM rental_bookings b JOIN rental_vehicles v ON v.id = b.vehicle_id WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
    ),
    one<{ n: string }>(
      db,
      sql`SELECT count(*)::text AS n FROM rental_bookings b JOIN rental_vehicles v ON v.id = b.vehicle_id WHERE ${where}`,
    ),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}
