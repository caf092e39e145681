import { sql } from 'drizzle-orm';
import { one, type Db } from '../../../platform/db/types.js';

/** The vehicle of a booking when that vehicle is the vendor's; undefined for a missing or another vendor's booking. */
export async function vendorBookingVehicle(db: Db, vendorId: number, bookingId: number): Promise<number | undefined> {
  const own = await one<{ vehicle_id: string }>(
    db,
    sql`SELECT b.vehicle_id::text FROM rental_bookings b JOIN rental_vehicles v ON v.id = b.vehicle_id
    WHERE b.id = ${bookingId} AND v.vendor_id = ${vendorId}`,
  );
  return own ? Number(own.vehicle_id) : undefined;
}
